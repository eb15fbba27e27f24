import { Button, ButtonLink } from '../../../ui/button';
import { Card } from '../../../ui/card';
import { Icon } from '../../../ui/icon';
import { Spinner } from '../../../ui/spinner';
import type { Destination } from '../sign-in-routing';

export type MagicLinkState =
  | { kind: 'processing' }
  | { kind: 'confirm'; email: string; onContinue: () => void }
  | { kind: 'success'; destination: Destination }
  | { kind: 'error'; message: string };

/** The faces of /magic-link-auth: processing, confirm (whose link it is), success (then a redirect), error. */
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
    case 'confirm':
      return (
        <Card className="p-8 text-center">
          <span className="mx-auto flex size-14 items-center justify-center rounded-full bg-spark-100 text-spark-700">
            <Icon name="mail" className="size-7" />
          </span>
          <h1 className="mt-5 text-2xl font-bold tracking-tight text-ink-950">Continue to Spark</h1>
          <p className="mt-2 text-slate-600">This secure link signs you in as</p>
          <p className="mt-3 rounded-xl bg-ink-50 px-4 py-3 text-lg font-semibold wrap-anywhere text-ink-950">{state.email}</p>
          {/* The address is on the card just above; the button's accessible name repeats it. */}
          <Button size="lg" className="mt-6 w-full" onClick={state.onContinue} aria-label={`Continue as ${state.email}`}>
            Continue
          </Button>
          <p className="mt-4 text-sm text-slate-500">Not your address? Close this page. Nothing happens until you continue.</p>
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
