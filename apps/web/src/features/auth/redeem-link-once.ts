import type { Session } from '@spark/contracts';
import { redeemSignIn } from './api/auth-api';

// One POST per token per page load: React StrictMode runs effects twice, and a second
// redemption of a single-use token would fail and show an error after a real success.
const redemptions = new Map<string, Promise<Session>>();

export function redeemLinkOnce(token: string): Promise<Session> {
  let redemption = redemptions.get(token);
  if (!redemption) {
    redemption = redeemSignIn({ token });
    redemptions.set(token, redemption);
  }
  return redemption;
}
