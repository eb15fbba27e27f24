import type { CreateLeadRequest, CreateLeadResponse, Lead, SetChallengeRequest } from '@spark/contracts';
import { apiRequest } from '../../../api/client';

export const createLead = (request: CreateLeadRequest) => apiRequest<CreateLeadResponse>('POST', '/leads', request);

export const setLeadChallenge = (request: SetChallengeRequest) => apiRequest<Lead>('PATCH', '/leads/challenge', request);
