import { useId } from 'react';
import { Input } from '../../../ui/input';
import { ErrorText } from '../../../ui/error-text';

interface EmailFieldProps {
  value: string;
  onChange: (value: string) => void;
  error: string | null;
  onBlur?: () => void;
}

export function EmailField({ value, onChange, error, onBlur }: EmailFieldProps) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="mb-1.5 block text-sm font-medium text-ink-950">
        Email address
      </label>
      <Input
        id={id}
        type="email"
        name="email"
        autoComplete="email"
        inputMode="email"
        required
        placeholder="you@example.com"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        onBlur={onBlur}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      {error && (
        <ErrorText id={`${id}-error`} className="mt-1.5">
          {error}
        </ErrorText>
      )}
    </div>
  );
}
