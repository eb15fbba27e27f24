import type { AuthUser, Session } from '@spark/contracts';
import { isTransientFailure, registerAccessTokenSource } from '../../api/client';
import { refreshSession } from '../auth/api/auth-api';
import { forgetWhatTheSessionShowed } from '../auth/sign-out-locally';
import { acrossTabs } from './across-tabs';
import { finishPendingSignOut } from './pending-sign-out';
import { retryWithBackoff } from './retry-with-backoff';

export type SessionStatus = 'loading' | 'signed-in' | 'signed-out';

export interface SessionState {
  status: SessionStatus;
  session: Session | null;
  /** Signed out only because the last restore could not reach Spark: it is restored again in the background. */
  unreachable?: boolean;
}

// Renew a minute before the access token expires, never sooner than this after the last renewal.
const renewAheadMs = 60_000;
const minimumRenewDelayMs = 5_000;
const retryAfterOutageMs = 30_000;
// A restore that could not reach Spark is tried again after this, doubling up to the most below.
const firstRestoreRetryMs = 3_000;
const mostRestoreRetryMs = 60_000;
// setTimeout fires at once for any delay beyond this (about 24.8 days).
const longestTimerMs = 2 ** 31 - 1;

/** What every page load starts from, and what a prerendered page was rendered with. */
export const loadingSessionState: SessionState = { status: 'loading', session: null };

// The access token lives here, in memory only: a page reload restores it from the refresh cookie.
let state: SessionState = loadingSessionState;
// Bumped on every change, so a restore that finishes late cannot undo a newer sign-in or sign-out.
let epoch = 0;
let restoring: Promise<void> | null = null;
let restoreRetryMs = firstRestoreRetryMs;
let restoreRetryTimer: ReturnType<typeof setTimeout> | undefined;
let refreshing: Promise<Session | null> | null = null;
let renewTimer: ReturnType<typeof setTimeout> | undefined;
const listeners = new Set<() => void>();

function setState(next: SessionState): void {
  state = next;
  epoch += 1;
  for (const listener of listeners) listener();
}

export function subscribeToSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export const currentSessionState = (): SessionState => state;

/**
 * Asks for a new session on the refresh cookie: null when there is none, throws when unreachable. A sign-out the
 * server has not heard of is finished first, so the cookie of a person who signed out is never used again.
 */
function refreshOnce(): Promise<Session | null> {
  refreshing ??= acrossTabs(async () => {
    await finishPendingSignOut();
    // Network failures, outages and rate limits pass; any other 4xx means the cookie is gone or spent.
    return retryWithBackoff(refreshSession, { retries: 3, firstDelayMs: 200, isTransient: isTransientFailure }).catch((error: unknown) => {
      if (isTransientFailure(error)) throw error;
      return null;
    });
  }).finally(() => {
    refreshing = null;
  });
  return refreshing;
}

function scheduleRenewal(delayMs: number): void {
  clearTimeout(renewTimer);
  renewTimer = setTimeout(() => void renewInBackground(), Math.min(Math.max(delayMs, minimumRenewDelayMs), longestTimerMs));
}

/**
 * The refresh cookie is the browser's, shared by its tabs: once another tab has signed someone else in, it renews
 * their session. A tab signed in as one person ends its session rather than go on as another, whose data its screens
 * and its queue of sparks waiting to upload would then mix with its own.
 */
const isSamePerson = (renewed: Session) => !state.session || state.session.user.id === renewed.user.id;

async function renewInBackground(): Promise<void> {
  const startedAt = epoch;
  try {
    const session = await refreshOnce();
    if (startedAt !== epoch) return;
    if (session && isSamePerson(session)) startSession(session);
    else endSession({ refused: session === null });
  } catch {
    // Unreachable for now: keep the current token while it lasts and try again soon.
    if (startedAt === epoch) scheduleRenewal(retryAfterOutageMs);
  }
}

/** Holds a session just issued (by a redeemed link or code, or a refresh) and keeps it fresh. */
export function startSession(session: Session): void {
  stopRestoringInBackground();
  setState({ status: 'signed-in', session });
  // From expires_in, not expires_at: a device clock that is off (or faked) must not start a renewal storm.
  scheduleRenewal(session.expires_in * 1000 - renewAheadMs);
}

/**
 * Forgets the session in this tab; the server side is ended by `signOut`. When the server refused it, what the device
 * kept of the person's data goes too.
 */
export function endSession({ refused = false } = {}): void {
  // Whoever signs in or out from here on decides; Spark answering again must not bring a session back.
  stopRestoringInBackground();
  clearTimeout(renewTimer);
  if (refused) forgetWhatTheSessionShowed();
  setState({ status: 'signed-out', session: null });
}

/** After the user changed their own metadata, so screens see the new values at once. */
export function replaceSessionUser(user: AuthUser): void {
  if (state.session) setState({ status: 'signed-in', session: { ...state.session, user } });
}

/** Restores the session from the refresh cookie, once per page load, whoever asks first. */
export function restoreSession(): Promise<void> {
  if (state.status !== 'loading') return Promise.resolve();
  restoring ??= attemptRestore();
  return restoring;
}

async function attemptRestore(): Promise<void> {
  const startedAt = epoch;
  // Unreachable (undefined) is not refused (null): offline, the device's last data still opens.
  const session = await refreshOnce().catch(() => undefined);
  if (startedAt !== epoch) return;
  if (session) startSession(session);
  else if (session === null) endSession({ refused: true });
  else {
    setState({ status: 'signed-out', session: null, unreachable: true });
    clearTimeout(restoreRetryTimer);
    restoreRetryTimer = setTimeout(restoreInBackground, restoreRetryMs);
    restoreRetryMs = Math.min(restoreRetryMs * 2, mostRestoreRetryMs);
  }
}

/**
 * Tries again a restore that could not reach Spark: the device was offline, or Spark was down or restarting while the
 * device was not. It stays in the signed-out state meanwhile (the home shows the device's last data, and a capture
 * being written stays open), so the person is signed in without a reload and what they captured is sent. Each
 * failure waits longer; the network's return or the page coming back into view tries at once.
 */
function restoreInBackground(): void {
  clearTimeout(restoreRetryTimer);
  if (state.unreachable) void attemptRestore();
}

function stopRestoringInBackground(): void {
  clearTimeout(restoreRetryTimer);
  restoreRetryMs = firstRestoreRetryMs;
}

if (typeof window !== 'undefined') {
  window.addEventListener('online', restoreInBackground);
  document.addEventListener('visibilitychange', () => document.visibilityState === 'visible' && restoreInBackground());
}

/** The session's token, unless the request is `asUser`'s and the tab is signed in as someone else. */
const tokenOf = (asUser: string | undefined) => (asUser === undefined || state.session?.user.id === asUser ? (state.session?.access_token ?? null) : null);

registerAccessTokenSource({
  async accessToken(asUser) {
    await restoreSession();
    return tokenOf(asUser);
  },
  async renewAfterUnauthorized(rejectedToken, asUser) {
    const current = tokenOf(asUser);
    // Someone renewed while this request was in flight: just use the newer token.
    if (current && current !== rejectedToken) return current;
    await renewInBackground();
    return tokenOf(asUser);
  },
});
