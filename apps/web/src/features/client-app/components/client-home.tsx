import {
  type CoachNote,
  currentStreak,
  DEFAULT_EVOLUTION_DAYS,
  evolutionView,
  firstNameOf,
  greetingFor,
  localDate,
  noRestDays,
  type Progress,
  type RestDays,
  skippedBy,
} from '@spark/contracts';
import { useRef, useState } from 'react';
import { Button } from '../../../ui/button';
import { Card } from '../../../ui/card';
import { deviceTimeZone } from '../api/client-app-api';
import { useCapture } from '../hooks/use-capture';
import type { PendingSpark } from '../offline/pending-sparks-db';
import { CaptureDialog } from './capture-dialog';
import { DaysLeftRing } from './days-left-ring';
import { RestDaysCard } from './rest-days-card';
import { RemindersCard } from '../../reminders/components/reminders-card';
import { YourDataCard } from './your-data-card';
import { YourDitlCard } from './your-ditl-card';

export interface ClientHomeProps {
  userId: string;
  fullName: string | null;
  goal: string | null;
  progress: Progress | null;
  pinnedNote: CoachNote | null;
  restDays: RestDays | null;
  pending: PendingSpark[];
  offline: boolean;
  onSignOut: () => void;
}

// Before the first progress row exists, the home shows a fresh first evolution.
const fresh = { evolutionNumber: 1, evolutionEndDate: '', customEvolutionDays: null };

export function ClientHome({ userId, fullName, goal, progress, pinnedNote, restDays, pending, offline, onSignOut }: ClientHomeProps) {
  const now = new Date();
  const timeZone = deviceTimeZone();
  const evolution = progress
    ? evolutionView(progress, now, timeZone)
    : { ...evolutionView({ ...fresh, evolutionEndDate: localDate(now, timeZone) }, now, timeZone), daysLeft: DEFAULT_EVOLUTION_DAYS, percentComplete: 0 };
  const streak = progress ? currentStreak(progress, localDate(now, timeZone), skippedBy(restDays ?? noRestDays)) : 0;
  const firstName = firstNameOf(progress?.fullName ?? fullName);
  const { capture, uploading } = useCapture(userId);
  // A reminder notification opens /app?capture=1: straight into Quick Capture.
  const [dialog, setDialog] = useState<{ open: boolean; file: File | null }>(() => ({
    open: typeof window !== 'undefined' && new URLSearchParams(window.location.search).get('capture') === '1',
    file: null,
  }));
  const quickInput = useRef<HTMLInputElement>(null);

  return (
    <div className="min-h-dvh bg-slate-50 pb-16">
      <header className="bg-gradient-to-br from-ink-950 via-ink-900 to-ink-800 px-5 pt-8 pb-24 text-white">
        <div className="mx-auto flex max-w-3xl items-start justify-between gap-4">
          <div>
            <p className="text-sm font-medium tracking-wide text-spark-300 uppercase">The Spark</p>
            <h1 className="mt-1 text-2xl font-bold sm:text-3xl" data-testid="greeting">
              {greetingFor(now.getHours())}
              {firstName ? `, ${firstName}` : ''}
            </h1>
            {offline && <p className="mt-2 inline-flex rounded-full bg-white/10 px-3 py-1 text-xs font-medium">Offline: showing your last saved progress</p>}
          </div>
          <Button variant="inverse" onClick={onSignOut}>
            Sign out
          </Button>
        </div>
        <div className="mx-auto mt-8 flex max-w-3xl items-center gap-6">
          <DaysLeftRing daysLeft={evolution.daysLeft} percentComplete={evolution.percentComplete} />
          <div>
            <p className="text-xl font-semibold" data-testid="evolution">
              Evolution {evolution.number}
            </p>
            <p className="text-white/75">{evolution.percentComplete}% complete</p>
            <p className="mt-1 text-sm text-white/60">{evolution.lengthDays}-day cycle</p>
          </div>
        </div>
      </header>

      <main className="mx-auto -mt-16 max-w-3xl space-y-5 px-5">
        <div className="grid grid-cols-2 gap-4">
          <Stat label="Sparks" value={progress?.sparkCount ?? 0} testId="spark-count" />
          <Stat label="Day streak" value={streak} testId="streak" />
        </div>

        <div className="text-center">
          <input
            ref={quickInput}
            type="file"
            accept="image/*,video/*"
            className="hidden"
            data-testid="quick-capture-input"
            onChange={(event) => {
              const file = event.currentTarget.files?.[0] ?? null;
              event.currentTarget.value = '';
              if (file) setDialog({ open: true, file });
            }}
          />
          <Button size="lg" className="w-full py-5 text-lg" onClick={() => quickInput.current?.click()}>
            <svg aria-hidden="true" viewBox="0 0 24 24" className="size-6">
              <path fill="currentColor" d="M4 7h3l2-3h6l2 3h3v13H4V7Zm8 3a4 4 0 1 0 0 8 4 4 0 0 0 0-8Z" />
            </svg>
            Quick Capture
          </Button>
          <button
            type="button"
            className="mt-3 text-sm font-medium text-ink-700 underline-offset-2 hover:underline"
            onClick={() => setDialog({ open: true, file: null })}
          >
            or add a note with your capture
          </button>
        </div>

        {pending.length > 0 && (
          <Card className="border-l-4 border-spark-400 p-5" data-testid="pending-sparks">
            <p className="font-semibold text-ink-950">
              {pending.length} {pending.length === 1 ? 'spark' : 'sparks'} waiting to upload
            </p>
            <p className="mt-1 text-sm text-slate-600">Saved on this device. They upload automatically as soon as they can be sent.</p>
          </Card>
        )}

        {pinnedNote ? (
          <Card className="p-5" data-testid="coach-note">
            <p className="text-xs font-semibold tracking-wide text-spark-600 uppercase">A note from your coach</p>
            <p className="mt-2 text-ink-950">{pinnedNote.message}</p>
          </Card>
        ) : (
          <Card className="p-5" data-testid="welcome-card">
            <p className="text-lg font-semibold text-ink-950">Welcome to your evolution</p>
            <p className="mt-1 text-slate-600">
              Capture one spark a day: a photo or a moment that shows the change you're making. Your coach will see your progress.
            </p>
          </Card>
        )}

        {restDays && progress && <RestDaysCard userId={userId} restDays={restDays} evolutionEndDate={progress.evolutionEndDate} offline={offline} />}

        {!offline && progress && <RemindersCard />}

        {!offline && <YourDitlCard />}

        <Card className="p-5">
          <p className="text-xs font-semibold tracking-wide text-slate-500 uppercase">Your transformation goal</p>
          <p className="mt-2 text-lg text-ink-950" data-testid="goal">
            {progress?.transformationGoal ?? goal ?? 'Set your goal with your coach at your next pivot meeting.'}
          </p>
        </Card>

        {!offline && <YourDataCard />}
      </main>

      <CaptureDialog
        open={dialog.open}
        initialFile={dialog.file}
        uploading={uploading}
        onCapture={capture}
        onClose={() => setDialog({ open: false, file: null })}
      />
    </div>
  );
}

function Stat({ label, value, testId }: { label: string; value: number; testId: string }) {
  return (
    <Card className="p-5 text-center">
      <p className="text-3xl font-bold text-ink-950" data-testid={testId}>
        {value}
      </p>
      <p className="mt-1 text-sm text-slate-600">{label}</p>
    </Card>
  );
}
