import { isTransientFailure } from '../../api/client';
import { deviceKeys, readStored, removeStored, writeStored } from '../../lib/storage-keys';
import { endServerSession } from '../auth/api/auth-api';

/** Ends the session of the browser's refresh cookie on the server; throws only while the server cannot be told. */
async function endOnServer(): Promise<void> {
  try {
    await endServerSession();
  } catch (error) {
    // A refusal (401, 403, 404 or another 4xx but 429) means there was no session left to end (docs/product.md §8).
    if (isTransientFailure(error)) throw error;
  }
  removeStored(deviceKeys.signOutPending);
}

/**
 * Signs out on the server. When the server cannot be told (offline, an outage), the httpOnly cookie stays in the
 * browser and its session stays alive, so the sign-out is remembered on the device and finished before that cookie
 * is used again (`finishPendingSignOut`): the next person to open Spark here does not find the account still signed
 * in. Resolves whether the server has heard of it.
 */
export async function endServerSessionOrRemember(): Promise<boolean> {
  try {
    await endOnServer();
    return true;
  } catch {
    writeStored(deviceKeys.signOutPending, 'true');
    return false;
  }
}

/** Before the refresh cookie is used: ends the session a sign-out left alive. Throws while the server is unreachable. */
export async function finishPendingSignOut(): Promise<void> {
  if (readStored(deviceKeys.signOutPending) !== null) await endOnServer();
}

/** A sign-in replaced the cookie whose session a sign-out left alive: nothing of it is left to end on this device. */
export const forgetPendingSignOut = () => removeStored(deviceKeys.signOutPending);
