// What other screens use: the hook, the guards and the session setters.
export { useSession, type SessionHandle } from './use-session';
export { RequireRole, RequireSession } from './components/require-role';
export { replaceSessionUser, startSession, type SessionStatus } from './session-store';
