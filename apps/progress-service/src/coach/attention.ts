import type { Attention } from '@spark/contracts';

export interface AttentionInput {
  status: string;
  evolutionNumber: number;
  /** Days since the last spark (or since the evolution started when there is none yet) that were not rest or pause days. */
  idleDays: number;
  hasSparked: boolean;
}

/** A client is slipping when an active cycle has gone two local days without a spark (a broken streak). */
export const SLIPPING_AFTER_IDLE_DAYS = 2;

export function attentionOf({ status, evolutionNumber, idleDays, hasSparked }: AttentionInput): Attention {
  if (status !== 'active' || idleDays < SLIPPING_AFTER_IDLE_DAYS) return { slipping: false, reason: null };
  if (!hasSparked) return { slipping: true, reason: `No sparks yet, ${idleDays} days into Evolution ${evolutionNumber}` };
  if (idleDays === SLIPPING_AFTER_IDLE_DAYS) return { slipping: true, reason: 'Streak broken: no spark yesterday' };
  return { slipping: true, reason: `No spark for ${idleDays} days` };
}
