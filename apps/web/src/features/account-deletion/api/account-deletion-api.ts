import { accountDeletionPageSchema, confirmAccountDeletionResponseSchema, requestAccountDeletionResponseSchema } from '@spark/contracts';
import { apiRequest } from '../../../api/client';

export const accountDeletionKeys = { all: ['account-deletions'] as const };

export const accountDeletionApi = {
  /** E-mails the signed-in client the link that confirms deleting the account. */
  request: async () => requestAccountDeletionResponseSchema.parse(await apiRequest<unknown>('POST', '/me/account-deletion')),
  // Without the session: the link may open on another device, and the account it names is gone afterwards.
  confirm: async (token: string) =>
    confirmAccountDeletionResponseSchema.parse(await apiRequest<unknown>('POST', '/account-deletion/confirm', { token }, { authenticate: false })),
  list: async (cursor?: string) => {
    const query = new URLSearchParams({ limit: '25' });
    if (cursor) query.set('cursor', cursor);
    return accountDeletionPageSchema.parse(await apiRequest<unknown>('GET', `/admin/account-deletions?${query.toString()}`));
  },
};
