import { eventPatterns, patterns } from '@spark/contracts';
import { z } from 'zod';
import type { BusContract } from '../contract-check';

// Patterns that exist only to exercise the transport: any payload in, any answer out.
const anything = { request: z.unknown(), response: z.unknown() };

/** The product's contract plus the transport tests' own patterns. */
export const testContract: BusContract = {
  requests: {
    ...patterns,
    'count.hit': anything,
    'slow.work': anything,
    'late.write': anything,
    'leads.whoami': anything,
    'leads.explode': anything,
    'echo.slow': anything,
    'shared.read': anything,
    'deadline.read': anything,
    'gate.note': anything,
  },
  events: { ...eventPatterns, 'leads.noted': z.object({ note: z.string() }).strict() },
};
