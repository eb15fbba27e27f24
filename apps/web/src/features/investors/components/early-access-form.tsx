import { type FormEvent, useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { ApiError } from '../../../api/client';
import { useHydrated } from '../../../lib/hydration';
import { useAction } from '../../../lib/use-action';
import { Button } from '../../../ui/button';
import { Card } from '../../../ui/card';
import { Input } from '../../../ui/input';
import { PublicLayout } from '../../../ui/layout/public-layout';
import { toast } from '../../../ui/toaster';
import { investorsApi } from '../api/investors-api';

/**
 * The coming-soon variant of /donate (`/donate?early-access`): e-mail capture, then home after 1.5 s. Prerendered,
 * so the field is uncontrolled: what is typed before React takes over is kept and read on submit.
 */
export function EarlyAccessForm() {
  const navigate = useNavigate();
  const hydrated = useHydrated();
  const [posted, setPosted] = useState(false);
  const keepPosted = useAction(
    async (email: string) => {
      await investorsApi.earlyAccess({ email });
      toast.success("Thanks! We'll keep you posted.");
      setPosted(true);
    },
    (error) =>
      toast.error(
        error instanceof ApiError && error.status < 500 && error.status > 0 ? `Database error: ${error.message}` : 'Something went wrong. Please try again.',
      ),
  );
  useEffect(() => {
    if (!posted) return;
    const timer = setTimeout(() => void navigate('/'), 1500);
    return () => clearTimeout(timer);
  }, [posted, navigate]);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    keepPosted.run(String(new FormData(event.currentTarget).get('email') ?? ''));
  };
  return (
    <PublicLayout>
      <section className="bg-ink-950 px-4 py-20 sm:px-6">
        <Card className="mx-auto max-w-lg p-8">
          <p className="text-sm font-semibold tracking-widest text-spark-700 uppercase">Coming soon</p>
          <h1 className="mt-2 text-3xl font-bold text-ink-950">Our investor round opens soon</h1>
          <p className="mt-2 text-slate-600">Leave your e-mail and you will be the first to see the deck.</p>
          <form className="mt-6 space-y-4" onSubmit={submit}>
            <Input type="email" name="email" required aria-label="Email" placeholder="you@fund.com" />
            <Button type="submit" size="lg" className="w-full" disabled={!hydrated || keepPosted.isPending || posted}>
              {keepPosted.isPending ? 'Sending...' : 'Keep me posted'}
            </Button>
          </form>
          {posted && (
            <p role="status" className="mt-4 text-sm text-emerald-800">
              You're on the list. Taking you home...
            </p>
          )}
        </Card>
      </section>
    </PublicLayout>
  );
}
