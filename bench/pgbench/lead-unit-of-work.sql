-- The lead's unit of work as the leads-service runs it (BEGIN with its statement timeout, the lead and its two
-- outbox rows in one statement, the request ledger's row, COMMIT), for pgbench on a database the product migrated:
--   pgbench -n -c 10 -j 2 -T 8 -M extended|prepared -f bench/pgbench/lead-unit-of-work.sql <database>
-- -M extended plans every statement on every run, as an unnamed statement does; -M prepared plans it once.
\set n random(1, 2000000000)
BEGIN;
SET LOCAL statement_timeout = 5000;
WITH lead AS (INSERT INTO leads.leads (id, email, role, interest, challenge_token_hash, created_at) VALUES (gen_random_uuid(), 'pgb-' || :n || '-' || :client_id || '@example.com', 'client', 'x', decode(md5(:n::text), 'hex'), now()) ON CONFLICT (email) DO NOTHING RETURNING id, email, role, full_name, company, interest, approval_status, primary_challenge, user_created, created_at), jobs AS (INSERT INTO leads.outbox (id, queue, job_name, payload) SELECT * FROM unnest(ARRAY[gen_random_uuid(), gen_random_uuid()]::uuid[], ARRAY['mail','mail']::text[], ARRAY['confirm','alert']::text[], ARRAY['{"a":1}','{"b":2}']::jsonb[]) WHERE EXISTS (SELECT 1 FROM lead)) SELECT * FROM lead;
INSERT INTO leads.handled_requests (request_key, pattern, outcome) VALUES (decode(md5(:n::text || 'k' || :client_id), 'hex'), 'leads.submit', decode(md5(:n::text), 'hex')) ON CONFLICT (request_key) DO NOTHING RETURNING 1;
COMMIT;
