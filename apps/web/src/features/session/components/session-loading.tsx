import { Spinner } from '../../../ui/spinner';

export function SessionLoading() {
  return (
    <div className="flex min-h-[60vh] flex-col items-center justify-center gap-3 text-spark-600">
      <Spinner label="Checking your session" />
      <p className="text-sm text-slate-600">Loading...</p>
    </div>
  );
}
