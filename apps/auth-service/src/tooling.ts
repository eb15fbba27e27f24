// What tools outside this service may use of it: its users table (scripts/create-user.ts), the Redis keys of an
// address's sign-in e-mail cooldown (the system tests end a cooldown to ask for a fresh link at once) and the signer of
// access tokens (a system test signs one for a gateway that runs without this service), and the renewal budget and
// the reuse grace window sessions' tests run through; the restore step that erases again the accounts a restored backup brings back
// (scripts/replay-erasures.ts).
export { cooldownKeys } from './sign-in/mail-cooldown';
export { SessionIssuer } from './sessions/session-issuer';
export { REFRESH_REUSE_GRACE_SECONDS, SESSION_RENEWALS } from './sessions/sessions.repository';
export { UsersRepository } from './users/users.repository';
export { replayErasures } from './account-deletion/erasure-replay';
