import type { AuthUser, SetRoleBody, UserPage, UserRole } from '@spark/contracts';
import { apiRequest } from '../../../api/client';

export type RoleFilter = UserRole | 'all';

export const teamKeys = {
  all: ['team'] as const,
  members: (role: RoleFilter, search: string) => [...teamKeys.all, role, search] as const,
};

export const teamApi = {
  members: (role: RoleFilter, search: string, cursor?: string) => {
    const params = new URLSearchParams({ limit: '25' });
    if (role !== 'all') params.set('role', role);
    if (search.trim()) params.set('search', search.trim());
    if (cursor) params.set('cursor', cursor);
    return apiRequest<UserPage>('GET', `/auth/users?${params.toString()}`);
  },
  setRole: (userId: string, body: SetRoleBody) => apiRequest<AuthUser>('PATCH', `/admin/users/${userId}/role`, body),
};
