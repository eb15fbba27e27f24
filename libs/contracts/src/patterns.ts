import { z } from 'zod';
import { createLeadRequestSchema, createLeadResponseSchema, leadSchema, setChallengeRequestSchema } from './leads';

/**
 * Every request/reply pattern on the service bus: `<service>.<action>` → request and response
 * schemas. The part before the dot names the service whose stream receives the request.
 * A shipped pattern is never renamed.
 */
export const patterns = {
  'leads.create': { request: createLeadRequestSchema, response: createLeadResponseSchema },
  'leads.set-challenge': { request: setChallengeRequestSchema, response: leadSchema },
} as const;

export type PatternName = keyof typeof patterns;
export type RequestOf<P extends PatternName> = z.input<(typeof patterns)[P]['request']>;
export type ResponseOf<P extends PatternName> = z.output<(typeof patterns)[P]['response']>;
/** What a handler receives: the request after its schema parsed it (defaults applied, e-mail normalised). */
export type PayloadOf<P extends PatternName> = z.output<(typeof patterns)[P]['request']>;

export const services = ['auth', 'leads', 'progress', 'investor', 'ditl', 'content'] as const;
export type ServiceName = (typeof services)[number];

/** The service a pattern is addressed to: the text before its first dot. */
export function serviceOf(pattern: string): string {
  const dot = pattern.indexOf('.');
  return dot === -1 ? pattern : pattern.slice(0, dot);
}
