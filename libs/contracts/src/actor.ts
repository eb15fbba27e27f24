import { z } from 'zod';
import { userRoleSchema } from './auth';
import { uuidSchema } from './common';

/**
 * The signed-in user on whose behalf the gateway asks a service to act, as its verified access
 * token says. Services decide with it what this person may do; they never take it from a body.
 */
export const actorSchema = z.object({ id: uuidSchema, role: userRoleSchema }).strict();
export type Actor = z.infer<typeof actorSchema>;
