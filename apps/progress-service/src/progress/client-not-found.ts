import { DomainError } from '@spark/errors';

/** What a coach's request about a client without a progress row answers: never a client, or erased. */
export const clientNotFound = () => new DomainError('NOT_FOUND', 'Client not found.');
