import { SetMetadata } from '@nestjs/common';
import { type PatternName, patterns } from '@spark/contracts';
import type { z } from 'zod';

export const RESPONDS = Symbol('responds');

/** What a route answers on success, for the OpenAPI document (docs/openapi.ts); its status is the route's own. */
export interface ResponseSpec {
  /** The JSON body's schema; none for an empty answer, a redirect or a file. */
  schema?: z.ZodType;
  /** What the body is when it is not JSON (a file, a redirect). */
  description?: string;
}

/**
 * Declares a route's success answer: the response schema of the bus pattern it answers with (the usual case), or
 * a schema of its own. Every route has one; a test fails when a route lacks it.
 */
export function Responds(answer: PatternName | z.ZodType): MethodDecorator {
  const schema = typeof answer === 'string' ? patterns[answer].response : answer;
  return SetMetadata(RESPONDS, { schema } satisfies ResponseSpec);
}

/** A route whose success answer is not a JSON body: an empty 204, a file. */
export function RespondsWithout(description: string): MethodDecorator {
  return SetMetadata(RESPONDS, { description } satisfies ResponseSpec);
}
