import { useState, type FormEvent } from 'react';
import { Button } from '../../../ui/button';
import { Icon } from '../../../ui/icon';
import { useSendMagicLink } from '../hooks/use-send-magic-link';
import { parseEmail } from '../parse-email';
import { EmailField } from './email-field';
import type { SignInProduct } from './sign-in-copy';

/** The e-mail field and "Send Magic Link"; the same answer whether or not the e-mail has an account. */
export function MagicLinkForm({ product }: { product: SignInProduct | null }) {
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const { send, isPending: sending } = useSendMagicLink(() => setEmail(''));
  const blank = email.trim() === '';

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (sending) return;
    if (blank) return setError('Please enter your email address');
    const parsed = await parseEmail(email);
    if ('error' in parsed) return setError(parsed.error);
    setError(null);
    send({ email: parsed.email, product: product ?? 'spark' });
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-label="Sign in with a magic link" className="space-y-4">
      <EmailField
        value={email}
        onChange={(value) => {
          setEmail(value);
          if (error) setError(null);
        }}
        error={error}
        // The button is disabled while blank, so say why once the field has been left empty.
        onBlur={() => {
          if (blank) setError('Please enter your email address');
        }}
      />
      <Button type="submit" size="lg" className="w-full" disabled={blank || sending}>
        <Icon name="mail" className="size-5" />
        {sending ? 'Sending link...' : 'Send Magic Link'}
      </Button>
    </form>
  );
}
