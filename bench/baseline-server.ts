// The monolith baseline (docs/benchmarks.md): plain Fastify + pg inserting a lead and adding two BullMQ jobs.
// Started by bench/lead-submission.ts; not part of the product.
import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import Fastify from 'fastify';
import { Redis } from 'ioredis';
import { Pool } from 'pg';

const [databaseUrl, redisUrl, port, prefix] = process.argv.slice(2) as [string, string, string, string];
const pool = new Pool({ connectionString: databaseUrl, max: 10 });
const queue = new Queue('mail', { connection: new Redis(redisUrl, { maxRetriesPerRequest: null }), prefix });
const app = Fastify();

app.post<{ Body: { email: string; role?: string } }>('/api/leads', async (request, reply) => {
  const { rows } = await pool.query(`INSERT INTO baseline_leads (id, email, role) VALUES ($1, $2, $3) RETURNING id, email, role, created_at`, [
    randomUUID(),
    request.body.email,
    request.body.role ?? 'client',
  ]);
  await queue.add('lead-confirmation', { leadId: rows[0].id });
  await queue.add('lead-alert', { leadId: rows[0].id });
  return reply.status(201).send(rows[0]);
});

pool
  .query(
    `CREATE TABLE IF NOT EXISTS baseline_leads (id uuid PRIMARY KEY, email text UNIQUE NOT NULL, role text NOT NULL, created_at timestamptz NOT NULL DEFAULT now())`,
  )
  .then(() => app.listen({ port: Number(port), host: '127.0.0.1' }))
  .then(() => process.send?.('ready'))
  .catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
