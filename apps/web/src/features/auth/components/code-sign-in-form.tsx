import { useId, useState, type FormEvent } from 'react';
import { Button } from '../../../ui/button';
import { Input } from '../../../ui/input';
import { useRedeemCode } from '../hooks/use-redeem-code';
import { parseEmail } from '../parse-email';
import { EmailField } from './email-field';

const sixDigits = /^\d{6}$/;

/** For signing in on another device: the e-mail plus the 6-digit code from the same e-mail. */
export function CodeSignInForm() {
  const codeId = useId();
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const { redeem, isPending: signingIn } = useRedeemCode();
  const incomplete = email.trim() === '' || !sixDigits.test(code);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (signingIn) return;
    if (email.trim() === '') return setError('Please enter your email address');
    const parsed = await parseEmail(email);
    if ('error' in parsed) return setError(parsed.error);
    setError(null);
    redeem({ email: parsed.email, code });
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-label="Sign in with a code" className="space-y-4">
      <EmailField value={email} onChange={setEmail} error={error} />
      <div>
        <label htmlFor={codeId} className="mb-1.5 block text-sm font-medium text-ink-950">
          6-digit code
        </label>
        <Input
          id={codeId}
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          placeholder="123456"
          className="font-mono text-lg tracking-[0.4em]"
          value={code}
          onChange={(event) => setCode(event.target.value.replace(/\D/g, '').slice(0, 6))}
        />
        <p className="mt-1.5 text-sm text-slate-600">It is in the same e-mail as your magic link and works once.</p>
      </div>
      <Button type="submit" size="lg" className="w-full" disabled={incomplete || signingIn}>
        {signingIn ? 'Signing in...' : 'Sign in with code'}
      </Button>
    </form>
  );
}
