import { unsubscribeThisDevice } from '../reminders/push-support';
import { endEverySession } from './api/auth-api';
import { endServerSessionOrRemember } from '../session/pending-sign-out';
import { endSession } from '../session/session-store';
import { signOutLocally } from './sign-out-locally';

/**
 * Revokes the refresh token on the server and unsubscribes the browser from reminders, then forgets the session and the
 * stored flags (docs/product.md §4).
 * Resolves false only when the server could not be told; the browser is signed out regardless, and the server is
 * told before this browser's refresh cookie is used again.
 */
export async function signOut(): Promise<boolean> {
  try {
    const [serverSignedOut] = await Promise.all([endServerSessionOrRemember(), unsubscribeThisDevice()]);
    return serverSignedOut;
  } finally {
    endSession();
    signOutLocally();
  }
}

/**
 * Ends every session of the person on the server, on every device (a lost phone, a computer left signed in), then
 * signs this browser out as `signOut` does. Throws, changing nothing, when the server could not do it.
 */
export async function signOutEverywhere(): Promise<void> {
  await endEverySession();
  try {
    await unsubscribeThisDevice();
  } finally {
    endSession();
    signOutLocally();
  }
}
