import type { AuditAction, AuditEventPage } from '@spark/contracts';
import { apiRequest } from '../../../api/client';

export interface AuditFilters {
  action?: AuditAction;
  /** An e-mail address: only this person's actions. */
  actor?: string;
}

export const auditKeys = { all: ['audit'] as const, page: (filters: AuditFilters) => [...auditKeys.all, filters] as const };

export const auditApi = {
  list: (filters: AuditFilters, cursor?: string) => {
    const query = new URLSearchParams({ limit: '25' });
    if (filters.action) query.set('action', filters.action);
    if (filters.actor) query.set('actor', filters.actor);
    if (cursor) query.set('cursor', cursor);
    return apiRequest<AuditEventPage>('GET', `/admin/audit?${query.toString()}`);
  },
};
