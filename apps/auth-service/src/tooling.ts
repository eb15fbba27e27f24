// What tools outside this service may use of it: its users table (scripts/create-user.ts) and the Redis keys of an
// address's sign-in e-mail cooldown (the system tests end a cooldown to ask for a fresh link at once).
export { cooldownKeys } from './sign-in/mail-cooldown';
export { UsersRepository } from './users/users.repository';
