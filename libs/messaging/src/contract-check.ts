import { eventPatterns, patterns, replaySafePatterns, toFieldErrors } from '@spark/contracts';
import type { z } from 'zod';
import { DomainError } from '@spark/errors';

/** What a bus may carry: request patterns with their request and response schemas, and event patterns. */
export interface BusContract {
  requests: Readonly<Record<string, { request: z.ZodType; response: z.ZodType }>>;
  events: Readonly<Record<string, z.ZodType>>;
  /** Request patterns that may run again on redelivery, with why; every other request runs once per request id. */
  replaySafe?: Readonly<Record<string, string>>;
}

/** The product's contract, from libs/contracts. */
export const sparkContract: BusContract = { requests: patterns, events: eventPatterns, replaySafe: replaySafePatterns };

export const isRequestPattern = (contract: BusContract, pattern: string) => Object.hasOwn(contract.requests, pattern);
export const isEventPattern = (contract: BusContract, pattern: string) => Object.hasOwn(contract.events, pattern);
export const isReplaySafe = (contract: BusContract, pattern: string) => Object.hasOwn(contract.replaySafe ?? {}, pattern);

function parseWith(schema: z.ZodType, json: string): unknown {
  let data: unknown;
  try {
    data = JSON.parse(json);
  } catch {
    throw new DomainError('VALIDATION_FAILED', 'The request is not valid JSON');
  }
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    throw new DomainError('VALIDATION_FAILED', 'The request is not valid', { fieldErrors: toFieldErrors(parsed.error) });
  }
  return parsed.data;
}

/**
 * Validates the JSON payload of a request and returns it PARSED (defaults applied, e-mails normalised).
 * A pattern outside the contract is unknown: nothing runs for it.
 */
export function parseRequest(contract: BusContract, pattern: string, json: string): unknown {
  if (!isRequestPattern(contract, pattern)) throw new DomainError('NOT_FOUND', `Unknown message pattern ${pattern}`);
  return parseWith(contract.requests[pattern].request, json);
}

/** Validates the JSON payload of an event with its contract schema; throws for anything else. */
export function parseEvent(contract: BusContract, pattern: string, json: string): unknown {
  if (!isEventPattern(contract, pattern)) throw new DomainError('NOT_FOUND', `Unknown event pattern ${pattern}`);
  return parseWith(contract.events[pattern], json);
}

/**
 * Checks a handler's answer against its contract as the caller will see it (after JSON), so a
 * handler that breaks its contract fails loudly on its own side instead of in the caller.
 */
export function parseResponse(contract: BusContract, pattern: string, result: unknown): unknown {
  const asSent: unknown = result === undefined ? undefined : JSON.parse(JSON.stringify(result));
  const parsed = contract.requests[pattern].response.safeParse(asSent);
  if (!parsed.success) {
    throw new Error(`${pattern} answered outside its contract: ${JSON.stringify(toFieldErrors(parsed.error))}`);
  }
  return parsed.data;
}
