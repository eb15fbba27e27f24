import { createLeadRequestSchema } from '@spark/contracts';
import { useId, useState, type FormEvent } from 'react';
import { readStored, storageKeys, writeStored } from '../../../lib/storage-keys';
import { Button } from '../../../ui/button';
import { classNames } from '../../../ui/class-names';
import { Input } from '../../../ui/input';
import { Select } from '../../../ui/select';
import { useCreateLead } from '../hooks/use-create-lead';

type FormRole = 'client' | 'coach';

const roleOptions: ReadonlyArray<{ value: FormRole; label: string }> = [
  { value: 'client', label: 'Client' },
  { value: 'coach', label: 'Coach' },
];

const storedRolePreference = (): FormRole => (readStored(storageKeys.landingRolePreference) === 'coach' ? 'coach' : 'client');

interface InterestFormProps {
  // "dark" sits on the indigo hero; "light" on a white card.
  tone?: 'dark' | 'light';
}

/** E-mail plus role: the form behind most of the site's calls to action. */
export function InterestForm({ tone = 'light' }: InterestFormProps) {
  const fieldId = useId();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<FormRole>(storedRolePreference);
  const [emailError, setEmailError] = useState<string | null>(null);
  const createLead = useCreateLead();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!email.trim() || !role || createLead.isPending) return;
    const parsed = createLeadRequestSchema.safeParse({ email, role });
    if (!parsed.success) {
      setEmailError(parsed.error.issues[0]?.message ?? 'Enter a valid email address');
      return;
    }
    setEmailError(null);
    createLead.mutate(parsed.data);
  };

  const chooseRole = (value: string) => {
    const next: FormRole = value === 'coach' ? 'coach' : 'client';
    setRole(next);
    writeStored(storageKeys.landingRolePreference, next);
  };

  const labelClasses = classNames('mb-1.5 block text-sm font-medium', tone === 'dark' ? 'text-slate-200' : 'text-ink-950');

  return (
    <form onSubmit={submit} aria-label="Express interest" className="grid gap-4 sm:grid-cols-[1.4fr_1fr_auto] sm:items-end">
      <div>
        <label htmlFor={`${fieldId}-email`} className={labelClasses}>
          Email
        </label>
        <Input
          id={`${fieldId}-email`}
          type="email"
          name="email"
          autoComplete="email"
          required
          placeholder="you@example.com"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          aria-invalid={emailError ? true : undefined}
          aria-describedby={emailError ? `${fieldId}-email-error` : undefined}
        />
      </div>
      <div>
        <label htmlFor={`${fieldId}-role`} className={labelClasses}>
          I am a
        </label>
        <Select id={`${fieldId}-role`} name="role" value={role} onChange={(event) => chooseRole(event.target.value)}>
          {roleOptions.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </Select>
      </div>
      <Button type="submit" size="lg" disabled={createLead.isPending} className="w-full sm:w-auto">
        {createLead.isPending ? 'Processing...' : 'Get Started Free'}
      </Button>
      {emailError && (
        <p id={`${fieldId}-email-error`} role="alert" className={classNames('text-sm sm:col-span-3', tone === 'dark' ? 'text-spark-200' : 'text-red-700')}>
          {emailError}
        </p>
      )}
    </form>
  );
}
