import type { DonatePage as DonatePageData } from '@spark/contracts';
import { type FormEvent, use, useEffect, useRef, useState } from 'react';
import { type LoaderFunctionArgs, useLoaderData, useSearchParams } from 'react-router-dom';
import { ApiError } from '../../../api/client';
import { useHydrated } from '../../../lib/hydration';
import { LoadedInBrowser } from '../../../lib/loaded-in-browser';
import { useAction } from '../../../lib/use-action';
import { usePageMeta } from '../../../lib/use-page-meta';
import { Button, buttonClasses } from '../../../ui/button';
import { Card } from '../../../ui/card';
import { Input } from '../../../ui/input';
import { PublicLayout } from '../../../ui/layout/public-layout';
import { investorsApi } from '../api/investors-api';
import { EarlyAccessForm } from './early-access-form';

const useOfFunds = [
  { share: 40, label: 'Product and engineering', text: 'The client app, the coach dashboard and the AI Day-in-the-Life planner.' },
  { share: 40, label: 'Coaches and growth', text: 'Recruiting and training coaches, and reaching the people they serve.' },
  { share: 20, label: 'Research and operations', text: 'Outcome studies with real participants, compliance and the team behind it.' },
];

const previewUrl = '/api/investors/deck/preview';

/** The preview may be an image or a PDF: shown as an image, and in a frame when it will not decode as one. */
function DeckPreview() {
  const [isDocument, setIsDocument] = useState(false);
  const frame = 'mt-4 w-full rounded-xl bg-slate-100 ring-1 ring-slate-200';
  return isDocument ? (
    <iframe title="Deck preview" src={previewUrl} className={`${frame} aspect-[4/3] border-0`} />
  ) : (
    <img src={previewUrl} alt="The first pages of the Spark investor deck" className={`${frame} h-auto object-contain`} onError={() => setIsDocument(true)} />
  );
}

type DeckOutcome = { kind: 'requested' } | { kind: 'granted'; downloadUrl: string } | { kind: 'denied'; message: string };

/** Uncontrolled, as on every prerendered page: what is typed before React takes over is kept and read on submit. */
function DeckRequestForm() {
  const hydrated = useHydrated();
  const accessCodeField = useRef<HTMLInputElement>(null);
  const [hasAccessCode, setHasAccessCode] = useState(false);
  // A code typed before React took over fired no change event: read it once hydrated, so the button says what it does.
  useEffect(() => setHasAccessCode(Boolean(accessCodeField.current?.value.trim())), []);
  const [outcome, setOutcome] = useState<DeckOutcome | null>(null);
  const request = useAction(
    async (email: string, accessCode: string) => {
      if (!accessCode) {
        await investorsApi.requestDeck({ email });
        setOutcome({ kind: 'requested' });
        return;
      }
      const answer = await investorsApi.downloadDeck({ email, accessCode });
      setOutcome(answer.downloadUrl ? { kind: 'granted', downloadUrl: answer.downloadUrl } : { kind: 'denied', message: 'No download URL received' });
    },
    (error) =>
      setOutcome({
        kind: 'denied',
        message: error instanceof ApiError && error.code !== 'NETWORK' ? error.message : 'Invalid access code. Please check your code and try again.',
      }),
  );
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const fields = new FormData(event.currentTarget);
    setOutcome(null);
    request.run(String(fields.get('email') ?? ''), String(fields.get('accessCode') ?? '').trim());
  };
  return (
    <Card className="p-6 sm:p-8">
      <h2 className="text-xl font-semibold text-ink-950">Request the full deck</h2>
      <p className="mt-1 text-sm text-slate-600">Have an access code? Enter it to download the deck right away.</p>
      <form className="mt-5 space-y-4" onSubmit={submit}>
        <label className="block text-sm font-medium text-ink-900">
          Email
          <Input className="mt-1" type="email" name="email" required placeholder="you@fund.com" />
        </label>
        <label className="block text-sm font-medium text-ink-900">
          Access code <span className="font-normal text-slate-500">(optional)</span>
          <Input
            className="mt-1 font-mono tracking-tighter sm:tracking-normal"
            ref={accessCodeField}
            name="accessCode"
            onChange={(event) => setHasAccessCode(event.target.value.trim() !== '')}
            placeholder="SPARK-XXXX-XXXX-XXXX-XXXX-XXXX"
            autoComplete="off"
          />
        </label>
        <Button type="submit" size="lg" className="w-full" disabled={!hydrated || request.isPending}>
          {request.isPending ? 'Requesting...' : hasAccessCode ? 'Download Deck' : 'Request Full Deck'}
        </Button>
      </form>
      {outcome?.kind === 'requested' && (
        <p role="status" className="mt-4 rounded-xl bg-emerald-50 p-4 text-sm text-emerald-900">
          Thank you! We review every request personally and will e-mail you an access code for the full deck within 48-72 hours.
        </p>
      )}
      {outcome?.kind === 'granted' && (
        <div role="status" className="mt-4 rounded-xl bg-emerald-50 p-4 text-sm text-emerald-900">
          <p className="font-semibold">Access granted</p>
          <p className="mt-1">Your download link works for 1 hour.</p>
          <a href={outcome.downloadUrl} className={buttonClasses('primary', 'md', 'mt-3')} target="_blank" rel="noreferrer">
            Download the deck
          </a>
        </div>
      )}
      {outcome?.kind === 'denied' && (
        <div role="alert" className="mt-4 rounded-xl bg-red-50 p-4 text-sm text-red-900">
          <p className="font-semibold">Access Denied</p>
          <p className="mt-1">{outcome.message}</p>
        </div>
      )}
    </Card>
  );
}

/**
 * The deck preview flag and the commitment levels, not awaited: the page shows at once and they fill in. Null when
 * they cannot be read (the API down): the page still shows the rest.
 */
export const loader = ({ request }: LoaderFunctionArgs) => ({
  page: new URL(request.url).searchParams.has('early-access') ? Promise.resolve(null) : investorsApi.donatePage().catch(() => null),
});

const useDonatePage = (): DonatePageData | null => use(useLoaderData<typeof loader>().page);

function DeckPreviewOrNotice() {
  if (useDonatePage()?.hasDeckPreview) return <DeckPreview />;
  return <p className="mt-4 rounded-xl bg-slate-100 p-10 text-center text-slate-600">The deck preview is on its way. Request the full deck to be notified.</p>;
}

function CommitmentLevels() {
  const levels = useDonatePage()?.commitmentLevels ?? [];
  if (levels.length === 0) {
    return (
      <p className="rounded-xl bg-slate-100 p-10 text-center text-slate-600 sm:col-span-2 lg:col-span-4">
        The commitment levels could not be loaded. Please try again later.
      </p>
    );
  }
  return levels.map((level) => (
    <Card key={level.name} className="flex flex-col">
      <p className="text-sm font-semibold tracking-widest text-spark-700 uppercase">{level.name}</p>
      <p className="mt-2 text-4xl font-bold text-ink-950">${level.amount.toLocaleString('en-US')}</p>
      <a href={level.paymentUrl} className={buttonClasses('primary', 'md', 'mt-6')} target="_blank" rel="noreferrer">
        Commit ${level.amount.toLocaleString('en-US')}
      </a>
    </Card>
  ));
}

export default function DonatePage() {
  const [params] = useSearchParams();
  usePageMeta({ title: 'Invest in Spark', description: 'The Spark pre-seed round: the deck, use of funds and commitment levels.', path: '/donate' });
  if (params.has('early-access')) return <EarlyAccessForm />;
  return (
    <PublicLayout>
      <section className="bg-ink-950 px-4 py-16 text-white sm:px-6 sm:py-20">
        <div className="mx-auto max-w-6xl">
          <p className="text-sm font-semibold tracking-widest text-spark-300 uppercase">Invest in Spark</p>
          <h1 className="mt-3 max-w-3xl text-4xl font-bold tracking-tight text-balance sm:text-5xl">Back the habit platform built on research.</h1>
          <p className="mt-5 max-w-2xl text-lg text-slate-300">
            We are raising a pre-seed round of $150K-$250K to bring coach-guided, evidence-based habit change to more people.
          </p>
        </div>
      </section>
      <section className="bg-slate-50 px-4 py-14 sm:px-6">
        <div className="mx-auto grid max-w-6xl gap-8 lg:grid-cols-[1.5fr_1fr]">
          <Card>
            <h2 className="text-lg font-semibold text-ink-950">Deck preview</h2>
            <LoadedInBrowser fallback={<div aria-busy="true" className="mt-4 min-h-28 rounded-xl bg-slate-100" />}>
              <DeckPreviewOrNotice />
            </LoadedInBrowser>
          </Card>
          <DeckRequestForm />
        </div>
      </section>
      <section className="bg-white px-4 py-14 sm:px-6">
        <div className="mx-auto max-w-6xl">
          <h2 className="text-3xl font-bold tracking-tight text-ink-950">Use of funds</h2>
          <p className="mt-2 text-slate-600">Pre-seed target: $150K-$250K.</p>
          <div className="mt-8 grid gap-6 md:grid-cols-3">
            {useOfFunds.map((fund) => (
              <Card key={fund.label}>
                <p className="text-4xl font-bold text-spark-600">{fund.share}%</p>
                <p className="mt-2 font-semibold text-ink-950">{fund.label}</p>
                <p className="mt-1 text-sm text-slate-600">{fund.text}</p>
              </Card>
            ))}
          </div>
        </div>
      </section>
      {/* Development payment links point here (PAYMENT_URL_* defaults), never at a made-up payment page. */}
      <section id="commitment" className="scroll-mt-20 bg-slate-50 px-4 py-14 sm:px-6">
        <div className="mx-auto max-w-6xl">
          <h2 className="text-3xl font-bold tracking-tight text-ink-950">Commitment levels</h2>
          <div className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
            <LoadedInBrowser fallback={null}>
              <CommitmentLevels />
            </LoadedInBrowser>
          </div>
        </div>
      </section>
    </PublicLayout>
  );
}
