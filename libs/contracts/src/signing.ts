import { type JobApp, jobProducers, type QueueName, queueConsumers, SCHEDULED } from './jobs';
import { type PatternName, patterns, type ServiceName, serviceOf, services } from './patterns';

/** Every process that holds signing keys: the gateway, the services and the notifier. */
export type SigningApp = JobApp | 'gateway';

/**
 * Who may send the requests that services send each other: the gateway only where a route of its own sends the
 * pattern too. Every other pattern is the gateway's alone, sent for the people it serves. A service sends only what
 * its own work needs; anything else from it is refused, however it is signed.
 */
export const busCallers = {
  'auth.invite': ['leads'],
  'progress.preset-evolution': ['leads'],
  'auth.export-account': ['progress'],
  'ditl.export-presentation': ['progress'],
  'leads.export-lead': ['progress'],
  'investor.export-investor': ['progress'],
  'progress.push-subscription-gone': ['notifier'],
  'auth.client-recipient': ['notifier'],
  'auth.deletion-subject': ['leads', 'progress', 'ditl', 'notifier', 'investor'],
  'auth.deletion-part-done': ['leads', 'progress', 'ditl', 'notifier', 'investor'],
} as const satisfies { [P in PatternName]?: readonly SigningApp[] };

/**
 * Requests in which the sender reports its own work: the named field must be the sender's own name, so one service
 * cannot report another's part of a deletion done (which would stop that service from erasing it).
 */
const senderNamedBy = { 'auth.deletion-part-done': 'part' } as const satisfies { [P in keyof typeof busCallers]?: string };

/** Whether a request from `caller` names another app where it must name its sender. */
export function speaksForAnother(caller: string | undefined, pattern: string, data: unknown): boolean {
  const field: string | undefined = (senderNamedBy as Partial<Record<string, string>>)[pattern];
  return field !== undefined && (data as Record<string, unknown> | null)?.[field] !== caller;
}

/** Whether `caller` may send a request of `pattern`. */
export function mayCall(caller: string, pattern: string): boolean {
  if (!Object.hasOwn(patterns, pattern)) return false;
  const callers: readonly string[] | undefined = (busCallers as Partial<Record<string, readonly string[]>>)[pattern];
  return callers ? callers.includes(caller) : caller === 'gateway';
}

/**
 * Where one signing key is used: the jobs `producer` queues on `queue` (checked by that queue's worker), the
 * requests `caller` sends to `service`, or what the gateway states, for a person whose token it verified, to `reader`,
 * an app no request of the gateway's reaches (an admin's approval of a campaign's text, which the notifier sends).
 * Each key is held by those two apps alone.
 */
export type SigningKeyPair =
  { kind: 'job'; queue: QueueName; producer: JobApp } | { kind: 'bus'; service: ServiceName; caller: SigningApp } | { kind: 'statement'; reader: 'notifier' };

export const signingKeyName = (pair: SigningKeyPair) => {
  if (pair.kind === 'job') return `job:${pair.queue}/${pair.producer}`;
  return pair.kind === 'bus' ? `bus:${pair.service}/${pair.caller}` : `statement:${pair.reader}/gateway`;
};

/** Every pair that needs a key. */
export function signingKeyPairs(): SigningKeyPair[] {
  const pairs = new Map<string, SigningKeyPair>();
  const add = (pair: SigningKeyPair) => pairs.set(signingKeyName(pair), pair);
  for (const [queue, producers] of Object.entries(jobProducers) as [QueueName, Record<string, string>][]) {
    for (const producer of Object.values(producers)) if (producer !== SCHEDULED) add({ kind: 'job', queue, producer: producer as JobApp });
  }
  for (const service of services) add({ kind: 'bus', service, caller: 'gateway' });
  for (const [pattern, callers] of Object.entries(busCallers)) {
    for (const caller of callers) add({ kind: 'bus', service: serviceOf(pattern) as ServiceName, caller });
  }
  add({ kind: 'statement', reader: 'notifier' });
  return [...pairs.values()];
}

const holders = (pair: SigningKeyPair): SigningApp[] => {
  if (pair.kind === 'job') return [pair.producer, queueConsumers[pair.queue]];
  return pair.kind === 'bus' ? [pair.caller, pair.service] : ['gateway', pair.reader];
};

/** The pairs whose key an app holds: what it signs, and what it checks. */
export const signingKeyPairsOf = (app: SigningApp): SigningKeyPair[] => signingKeyPairs().filter((pair) => holders(pair).includes(app));
