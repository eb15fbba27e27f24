import type { CoachDitlView, CurrentDitlResponse, DitlMomentEditBody, GenerateDitlResponse } from '@spark/contracts';
import { apiRequest } from '../../../api/client';

export const coachDitlKeys = {
  view: (userId: string) => ['coach', 'client', userId, 'ditl'] as const,
  current: ['ditl', 'current'] as const,
};

const base = (userId: string) => `/coach/clients/${encodeURIComponent(userId)}/ditl`;

export const coachDitlApi = {
  view: (userId: string) => apiRequest<CoachDitlView>('GET', base(userId)),
  regenerate: (userId: string, idempotencyKey: string) =>
    apiRequest<GenerateDitlResponse>('POST', `${base(userId)}/generations`, undefined, { idempotencyKey }),
  editMoment: (userId: string, moment: string, edit: DitlMomentEditBody) =>
    apiRequest<CoachDitlView>('PUT', `${base(userId)}/moments/${encodeURIComponent(moment)}`, edit),
  resetMoment: (userId: string, moment: string) => apiRequest<CoachDitlView>('DELETE', `${base(userId)}/moments/${encodeURIComponent(moment)}`),
};

/** The signed-in client's newest finished presentation, for the home screen's link back to it, and their newest request. */
export const fetchCurrentDitl = () => apiRequest<CurrentDitlResponse>('GET', '/ditl/generations/current');
