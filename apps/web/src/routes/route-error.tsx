import { useEffect } from 'react';
import { useRouteError } from 'react-router-dom';

// Chromium, WebKit and Firefox each word a screen's chunk that did not arrive differently.
const chunkNotLoaded = /dynamically imported module|importing a module script failed/i;

/** A screen's code that could not be fetched (the connection dropped before the app was kept for offline use). */
export const isScreenNotLoaded = (error: unknown) => error instanceof Error && chunkNotLoaded.test(error.message);

/**
 * What a person sees when a screen fails to open, in place of the router's developer page: a screen whose code did
 * not arrive opens again by itself once the browser is back online; any other failure offers a reload.
 */
export function RouteError() {
  const notLoaded = isScreenNotLoaded(useRouteError());
  useEffect(() => {
    if (!notLoaded) return;
    const reload = () => window.location.reload();
    window.addEventListener('online', reload);
    return () => window.removeEventListener('online', reload);
  }, [notLoaded]);
  return (
    <main className="flex min-h-[70vh] items-center justify-center px-4">
      <div role="alert" className="max-w-md rounded-2xl bg-white p-8 text-center shadow-sm ring-1 ring-slate-200">
        <h1 className="text-2xl font-bold tracking-tight text-ink-950">{notLoaded ? 'Spark could not open this page' : 'Something went wrong'}</h1>
        <p className="mt-3 text-slate-600">
          {notLoaded
            ? 'The connection dropped while the page was loading. It opens by itself as soon as you are back online.'
            : 'Spark hit an error while showing this page. Reloading usually fixes it.'}
        </p>
        <button
          type="button"
          onClick={() => window.location.reload()}
          className="mt-6 inline-flex items-center justify-center rounded-xl bg-spark-500 px-5 py-2.5 font-semibold text-ink-950 shadow-sm hover:bg-spark-400 focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-spark-600"
        >
          {notLoaded ? 'Try again' : 'Reload page'}
        </button>
      </div>
    </main>
  );
}
