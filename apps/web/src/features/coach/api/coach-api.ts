import {
  type AddClientLeadBody,
  type AddClientLeadResponse,
  type ClientDetail,
  type ClientPage,
  type ClientSort,
  type ClientSummary,
  type CoachNote,
  type CoachOverview,
  type HomeResponse,
  type Lead,
  leadInviteBodyOf,
  type LeadInviteResponse,
  type RequestExportResponse,
  type LeadPage,
  type LeadStatusFilter,
  type NudgeDraft,
  type PauseAllowanceBody,
  type PrivateNote,
  type PrivateNotePage,
  type RestDays,
  type SparkPage,
  type UpdateClientBody,
  type WeeklyCheckIn,
} from '@spark/contracts';
import { apiRequest } from '../../../api/client';

/** What the client list and Manage Client say for a client resting today. */
export const restingTodayLabel: Record<NonNullable<ClientSummary['restingToday']>, string> = { rest: 'Rest day today', pause: 'Paused today' };

/** Every query key of the dashboard in one place, so a mutation knows what to refresh. */
export const coachKeys = {
  all: ['coach'] as const,
  overview: () => [...coachKeys.all, 'overview'] as const,
  leads: (status: LeadStatusFilter, search: string) => [...coachKeys.all, 'leads', status, search] as const,
  clients: (sort: ClientSort) => [...coachKeys.all, 'clients', sort] as const,
  client: (userId: string) => [...coachKeys.all, 'client', userId] as const,
  privateNotes: (userId: string) => [...coachKeys.client(userId), 'private-notes'] as const,
};

const query = (params: Record<string, string | undefined>) => {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value) search.set(key, value);
  return search.toString();
};

export const coachApi = {
  overview: () => apiRequest<CoachOverview>('GET', '/coach/overview'),
  leads: (status: LeadStatusFilter, search: string, cursor?: string) =>
    apiRequest<LeadPage>('GET', `/coach/leads?${query({ status, search: search.trim() || undefined, cursor, limit: '25' })}`),
  // The invitation goes to the address and role the coach saw, and only there.
  approve: (lead: Lead) => apiRequest<LeadInviteResponse>('POST', `/coach/leads/${lead.id}/approve`, leadInviteBodyOf(lead)),
  resend: (lead: Lead) => apiRequest<LeadInviteResponse>('POST', `/coach/leads/${lead.id}/resend`, leadInviteBodyOf(lead)),
  reject: (leadId: string) => apiRequest<Lead>('POST', `/coach/leads/${leadId}/reject`),
  addClientLead: (body: AddClientLeadBody) => apiRequest<AddClientLeadResponse>('POST', '/coach/leads', body),
  clients: (sort: ClientSort, cursor?: string) => apiRequest<ClientPage>('GET', `/coach/clients?${query({ sort, cursor, limit: '25' })}`),
  client: (userId: string) => apiRequest<ClientDetail>('GET', `/coach/clients/${userId}`),
  updateClient: (userId: string, changes: UpdateClientBody) => apiRequest<ClientSummary>('PATCH', `/coach/clients/${userId}`, changes),
  // Drafts only: the coach sends one with sendNudge.
  nudgeDraft: (userId: string) => apiRequest<NudgeDraft>('GET', `/coach/clients/${userId}/nudge-draft`),
  weeklyCheckIn: (userId: string) => apiRequest<WeeklyCheckIn>('GET', `/coach/clients/${userId}/weekly-check-in`),
  // Sparks and notes of a client are the progress feature's routes.
  /** The client's home numbers, pinned note, rest day and pause days. */
  clientHome: (userId: string) => apiRequest<HomeResponse>('GET', `/progress/clients/${userId}`),
  setPauseAllowance: (userId: string, body: PauseAllowanceBody) => apiRequest<RestDays>('PUT', `/coach/clients/${userId}/pause-allowance`, body),
  exportData: (userId: string, exportId: string) => apiRequest<RequestExportResponse>('POST', `/coach/clients/${userId}/export`, { exportId }),
  sparks: (userId: string) => apiRequest<SparkPage>('GET', `/progress/clients/${userId}/sparks?limit=20`),
  privateNotes: (userId: string, cursor?: string) =>
    apiRequest<PrivateNotePage>('GET', `/progress/clients/${userId}/private-notes?${query({ cursor, limit: '25' })}`),
  addPrivateNote: (userId: string, note: string, idempotencyKey: string) =>
    apiRequest<PrivateNote>('POST', `/progress/clients/${userId}/private-notes`, { note }, { idempotencyKey }),
  sendNudge: (userId: string, message: string, isPinned: boolean, idempotencyKey: string) =>
    apiRequest<CoachNote>('POST', `/progress/clients/${userId}/notes`, { message, isPinned }, { idempotencyKey }),
};

/** US English, short month, day, year, hour and minute (docs/product.md §9). */
export const formatDateTime = (iso: string) =>
  new Date(iso).toLocaleString('en-US', { month: 'short', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit' });
