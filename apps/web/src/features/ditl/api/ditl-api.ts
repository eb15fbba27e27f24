import type { DitlPresentationResponse, DitlStatusResponse } from '@spark/contracts';
import { apiRequest } from '../../../api/client';

export const ditlKeys = {
  status: (generationId: string) => ['ditl', generationId, 'status'] as const,
  presentation: (generationId: string) => ['ditl', generationId, 'presentation'] as const,
};

/** check-ditl-status (docs/product.md §7). */
export const fetchDitlStatus = (generationId: string) => apiRequest<DitlStatusResponse>('GET', `/ditl/generations/${encodeURIComponent(generationId)}`);

/** `presentationUrl` is a gateway path under /api, fetched with the session's token. */
export const fetchPresentation = (presentationUrl: string) => apiRequest<DitlPresentationResponse>('GET', presentationUrl.replace(/^\/api/, ''));
