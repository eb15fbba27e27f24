// Build-time prerendering of the public pages (scripts/prerender-web.mjs runs this after `vite build
// --ssr`): their HTML and their share metadata are in the first response, so a phone paints the page
// before any JavaScript arrives and link previews work for crawlers that run no JavaScript.
import { PRERENDER_ORIGIN_PLACEHOLDER } from '@spark/contracts';
import { StrictMode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { createStaticHandler, type DataStrategyFunction, createStaticRouter, matchRoutes, type RouteObject, StaticRouterProvider } from 'react-router-dom';
import { type PageMeta, PageMetaCollector, pageHeadOf } from './lib/use-page-meta';
import { type RouteHandle, routes } from './routes/router';

export interface PrerenderedPage {
  path: string;
  /** Title, meta and canonical tags for the document head. */
  head: string;
  /** The markup that goes inside #root. */
  body: string;
  /** Source files of the page's screens (as Vite's manifest names them), for modulepreload links. */
  screenModules: string[];
}

/** Every path whose route is marked `handle.prerender`, and each of its variants as `path?name`. */
export function prerenderedPaths(tree: RouteObject[] = routes): string[] {
  return tree.flatMap((route) => {
    const handle = route.handle as RouteHandle | undefined;
    const own = handle?.prerender && route.path ? [route.path, ...(handle.prerenderedVariants ?? []).map((name) => `${route.path}?${name}`)] : [];
    return [...own, ...prerenderedPaths(route.children ?? [])];
  });
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function headHtml(meta: PageMeta): string {
  const head = pageHeadOf(meta, PRERENDER_ORIGIN_PLACEHOLDER);
  return [
    `<title>${escapeHtml(head.title)}</title>`,
    ...head.tags.map((tag) => `<meta ${tag.attribute}="${tag.key}" content="${escapeHtml(tag.content)}" />`),
    `<link rel="canonical" href="${escapeHtml(head.canonical)}" />`,
  ].join('\n    ');
}

async function streamToString(stream: NodeJS.ReadableStream): Promise<string> {
  let html = '';
  for await (const chunk of stream) html += chunk.toString();
  return html;
}

/**
 * At build time there is no API to read: each route's screen is loaded, but no loader runs, and the parts of a page
 * that show its loader's data render only in the browser (LoadedInBrowser).
 */
const withoutLoaders: DataStrategyFunction = async ({ matches }) => {
  const results = await Promise.all(matches.map((match) => match.resolve(() => null)));
  return Object.fromEntries(matches.map((match, index) => [match.route.id, results[index]]));
};

/** Renders one page with every lazy chunk resolved, exactly as the browser's first render will. */
export async function renderPage(path: string): Promise<PrerenderedPage> {
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(new URL(path, PRERENDER_ORIGIN_PLACEHOLDER)), { dataStrategy: withoutLoaders });
  if (context instanceof Response) throw new Error(`${path} answered ${context.status} instead of a page`);
  let meta: PageMeta | undefined;
  const { prelude } = await prerenderToNodeStream(
    <StrictMode>
      <PageMetaCollector.Provider value={(collected) => (meta = collected)}>
        <StaticRouterProvider router={createStaticRouter(handler.dataRoutes, context)} context={context} hydrate={false} />
      </PageMetaCollector.Provider>
    </StrictMode>,
  );
  const body = await streamToString(prelude);
  if (!meta) throw new Error(`${path} rendered without usePageMeta`);
  const screenModules = (matchRoutes(routes, path) ?? []).flatMap(({ route }) => {
    const module = (route.handle as RouteHandle | undefined)?.module;
    // Handles name modules relative to src/routes/, the manifest relative to the web app's root.
    return module ? [new URL(module, 'file:///src/routes/').pathname.slice(1)] : [];
  });
  return { path, head: headHtml(meta), body, screenModules };
}
