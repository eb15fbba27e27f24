import type { PipeTransform } from '@nestjs/common';
import { toFieldErrors } from '@spark/contracts';
import { DomainError } from '@spark/errors';
import type { z } from 'zod';

/** Validates a body (or query) with its contract schema: 400 with field errors, nothing else runs. */
export class ZodPipe<S extends z.ZodType> implements PipeTransform<unknown, z.output<S>> {
  // Public: the API document reads each route's contract from its pipes (docs/openapi.ts).
  constructor(readonly schema: S) {}

  transform(value: unknown): z.output<S> {
    const result = this.schema.safeParse(value ?? {});
    if (result.success) return result.data;
    throw new DomainError('VALIDATION_FAILED', 'Some fields are invalid.', { fieldErrors: toFieldErrors(result.error) });
  }
}
