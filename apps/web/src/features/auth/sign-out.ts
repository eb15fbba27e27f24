import { ApiError } from '../../api/client';
import { endSession } from '../session/session-store';
import { endServerSession } from './api/auth-api';
import { signOutLocally } from './sign-out-locally';

// The session is already gone or was never ours: the user is signed out either way (docs/product.md §8).
const meansAlreadySignedOut = (error: unknown) => error instanceof ApiError && [401, 403, 404].includes(error.status);

/**
 * Revokes the refresh token on the server, then forgets the session and the stored flags (docs/product.md §4).
 * Resolves false only when the server could not be told; the browser is signed out regardless.
 */
export async function signOut(): Promise<boolean> {
  let serverConfirmed = true;
  try {
    await endServerSession();
  } catch (error) {
    serverConfirmed = meansAlreadySignedOut(error);
  } finally {
    endSession();
    signOutLocally();
  }
  return serverConfirmed;
}
