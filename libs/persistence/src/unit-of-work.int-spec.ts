import { connect, createServer, type Server, type Socket } from 'node:net';
import { testPostgresUrl } from '@spark/testing';
import { createServiceDataSource } from './data-source';
import { inUnitOfWork, type ServiceDataSource } from './unit-of-work';

/**
 * A TCP relay in front of PostgreSQL that counts the client's flights: each time it writes after having read an
 * answer is one round trip. What the client writes before any answer comes back leaves in the same flight.
 */
async function startFlightCounter(target: URL): Promise<{ port: number; flights: () => number; close: () => Promise<void> }> {
  let flights = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    let answered = true;
    client.on('data', (chunk) => {
      if (answered) flights++;
      answered = false;
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      answered = true;
      client.write(chunk);
    });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => {
        client.destroy();
        upstream.destroy();
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    flights: () => flights,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('a unit of work on the pipelined connection', () => {
  let dataSource: ServiceDataSource;
  let relay: Awaited<ReturnType<typeof startFlightCounter>>;
  const schema = `uow_${process.pid}`;

  beforeAll(async () => {
    const target = new URL(await testPostgresUrl());
    relay = await startFlightCounter(target);
    const url = new URL(target);
    url.host = `127.0.0.1:${relay.port}`;
    // One connection, so every statement below travels through the same counted socket.
    dataSource = await createServiceDataSource({ url: url.toString(), schema, migrations: [], poolSize: 1 }).initialize();
    await dataSource.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await dataSource.query(`CREATE TABLE ${schema}.notes (id int PRIMARY KEY)`);
  });
  afterAll(async () => {
    await dataSource?.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await dataSource?.destroy();
    await relay?.close();
  });

  const flightsOf = async (work: () => Promise<unknown>) => {
    const before = relay.flights();
    await work().catch(() => undefined);
    return relay.flights() - before;
  };
  const notes = async () => (await dataSource.query<{ id: number }[]>(`SELECT id FROM ${schema}.notes ORDER BY id`)).map(({ id }) => id);

  it('sends BEGIN with its first statement: a one-statement unit takes two round trips, and commits', async () => {
    const flights = await flightsOf(() => inUnitOfWork(dataSource, () => dataSource.query(`INSERT INTO ${schema}.notes VALUES (1)`)));
    expect(flights).toBe(2);
    expect(await notes()).toEqual([1]);
  });

  it('sends a deadline with BEGIN too, and a prepared statement after them in the same flight', async () => {
    const flights = await flightsOf(() =>
      inUnitOfWork(dataSource, () => dataSource.preparedQuery('uow-insert-note', `INSERT INTO ${schema}.notes VALUES ($1)`, [2]), Date.now() + 5_000),
    );
    expect(flights).toBe(2);
    expect(await notes()).toEqual([1, 2]);
  });

  it('sends the statements of work running side by side together, and rolls all back when one fails', async () => {
    const flights = await flightsOf(() =>
      inUnitOfWork(dataSource, () =>
        Promise.all([dataSource.query(`INSERT INTO ${schema}.notes VALUES (3)`), dataSource.query(`INSERT INTO ${schema}.notes VALUES (1)`)]),
      ),
    );
    // BEGIN and both inserts; then the ROLLBACK once the duplicate key failed.
    expect(flights).toBe(2);
    expect(await notes()).toEqual([1, 2]);
  });

  it('still cuts a statement off at the deadline and rolls its unit back', async () => {
    await expect(
      inUnitOfWork(
        dataSource,
        async () => {
          await dataSource.query(`INSERT INTO ${schema}.notes VALUES (4)`);
          await dataSource.query('SELECT pg_sleep(2)');
        },
        Date.now() + 300,
      ),
    ).rejects.toThrow(/statement timeout/);
    expect(await notes()).toEqual([1, 2]);
  });
});
