import { patterns, toFieldErrors, type PatternName } from '@spark/contracts';
import type { z } from 'zod';
import { DomainError } from './domain-error';

export function isContractPattern(pattern: string): pattern is PatternName {
  return Object.hasOwn(patterns, pattern);
}

/**
 * Validates an incoming request of a contract pattern and returns the PARSED payload (defaults
 * applied, e-mails normalised). Patterns outside the contract pass through unchanged.
 */
export function parseRequest(pattern: string, data: unknown): unknown {
  if (!isContractPattern(pattern)) return data;
  const schema: z.ZodType = patterns[pattern].request;
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    throw new DomainError('VALIDATION_FAILED', 'The request is not valid', {
      fieldErrors: toFieldErrors(parsed.error),
    });
  }
  return parsed.data;
}

/**
 * Checks a handler's answer against its contract as the caller will see it (after JSON), so a
 * handler that breaks its contract fails loudly on its own side instead of in the caller.
 */
export function parseResponse(pattern: string, result: unknown): unknown {
  if (!isContractPattern(pattern)) return result;
  const asSent: unknown = result === undefined ? undefined : JSON.parse(JSON.stringify(result));
  const schema: z.ZodType = patterns[pattern].response;
  const parsed = schema.safeParse(asSent);
  if (!parsed.success) {
    throw new Error(`${pattern} answered outside its contract: ${JSON.stringify(toFieldErrors(parsed.error))}`);
  }
  return parsed.data;
}
