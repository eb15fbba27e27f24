import { ButtonLink } from '../../../ui/button';
import { Card } from '../../../ui/card';

/** Shown to a signed-in user whose role may not open the screen. */
export function AccessDenied({ message = 'Your account does not have access to this page.' }: { message?: string }) {
  return (
    <div className="flex min-h-screen items-center justify-center bg-slate-50 px-4">
      <Card className="w-full max-w-md text-center">
        <h1 className="text-2xl font-bold text-ink-950">Access Denied</h1>
        <p className="mt-3 text-slate-600">{message}</p>
        <ButtonLink to="/" variant="secondary" className="mt-6">
          Back to home
        </ButtonLink>
      </Card>
    </div>
  );
}
