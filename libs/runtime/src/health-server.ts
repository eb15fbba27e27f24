import { createServer, type Server } from 'node:http';

export type ReadinessCheck = () => Promise<boolean>;

/** A page of the internal port beside health, such as Prometheus metrics. */
export type InternalPage = () => Promise<{ contentType: string; body: string }>;

/**
 * The process's internal port: `/health/live`, `/health/ready` and any `pages` (metrics, API
 * documents) that must never be reachable from the public port.
 */
export async function startHealthServer(port: number, ready: ReadinessCheck, pages: Record<string, InternalPage> = {}): Promise<Server | undefined> {
  if (!port) return undefined;
  const server = createServer((request, response) => {
    const send = (status: number, body: object) => {
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    if (path === '/health/live') return send(200, { status: 'ok' });
    if (path === '/health/ready') {
      ready().then(
        (ok) => send(ok ? 200 : 503, { status: ok ? 'ok' : 'unavailable' }),
        () => send(503, { status: 'unavailable' }),
      );
      return;
    }
    const page = Object.hasOwn(pages, path) ? pages[path] : undefined;
    if (!page) return send(404, { status: 'not found' });
    page().then(
      ({ contentType, body }) => response.writeHead(200, { 'content-type': contentType }).end(body),
      () => send(500, { status: 'error' }),
    );
  });
  // A port already taken fails the start instead of leaving it waiting.
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, resolve));
  return server;
}
