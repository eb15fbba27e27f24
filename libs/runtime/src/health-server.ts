import { createServer, type Server } from 'node:http';

export type ReadinessCheck = () => Promise<boolean>;

/** `/health/live` and `/health/ready` for a process without an HTTP surface of its own. */
export async function startHealthServer(port: number, ready: ReadinessCheck): Promise<Server | undefined> {
  if (!port) return undefined;
  const server = createServer((request, response) => {
    const send = (status: number, body: object) => {
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    if (request.url === '/health/live') return send(200, { status: 'ok' });
    if (request.url === '/health/ready') {
      ready().then(
        (ok) => send(ok ? 200 : 503, { status: ok ? 'ok' : 'unavailable' }),
        () => send(503, { status: 'unavailable' }),
      );
      return;
    }
    send(404, { status: 'not found' });
  });
  await new Promise<void>((resolve) => server.listen(port, resolve));
  return server;
}
