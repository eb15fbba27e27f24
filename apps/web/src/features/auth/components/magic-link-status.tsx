import { ButtonLink } from '../../../ui/button';
import { Card } from '../../../ui/card';
import { Icon } from '../../../ui/icon';
import { Spinner } from '../../../ui/spinner';
import type { Destination } from '../sign-in-routing';

export type MagicLinkState = { kind: 'processing' } | { kind: 'success'; destination: Destination } | { kind: 'error'; message: string };

/** The three faces of /magic-link-auth: processing, success (then a redirect), error. */
export function MagicLinkStatus({ state }: { state: MagicLinkState }) {
  switch (state.kind) {
    case 'processing':
      return (
        <Card className="p-8 text-center" aria-live="polite">
          <span className="mx-auto flex size-14 items-center justify-center rounded-full bg-ink-50 text-ink-700">
            <Spinner label="Signing you in" className="[&_svg]:size-7" />
          </span>
          <h1 className="mt-5 text-2xl font-bold tracking-tight text-ink-950">Authenticating Your Access</h1>
          <p className="mt-2 text-slate-600">Verifying your secure link. This takes a moment.</p>
        </Card>
      );
    case 'success':
      return (
        <Card className="p-8 text-center" aria-live="polite">
          <span className="mx-auto flex size-14 items-center justify-center rounded-full bg-emerald-50 text-emerald-600">
            <Icon name="check" className="size-7" />
          </span>
          <h1 className="mt-5 text-2xl font-bold tracking-tight text-ink-950">Welcome to Spark</h1>
          <p className="mt-2 text-slate-600">{state.destination.welcome}</p>
        </Card>
      );
    case 'error':
      return (
        <Card className="p-8 text-center" role="alert">
          <span className="mx-auto flex size-14 items-center justify-center rounded-full bg-red-50 text-2xl font-bold text-red-600" aria-hidden="true">
            !
          </span>
          <h1 className="mt-5 text-2xl font-bold tracking-tight text-ink-950">Authentication Issue</h1>
          <p className="mt-2 text-slate-600">{state.message}</p>
          <ButtonLink to="/signup" size="lg" className="mt-8 w-full sm:w-auto">
            Return to Signup
          </ButtonLink>
        </Card>
      );
  }
}
