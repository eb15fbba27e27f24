// SQLSTATE classes and codes that mean "the server is not there right now", not "this query is wrong":
// 08 connection exception, 57P01–57P03 shutdown or starting up, 53300 too many connections.
const unavailableStates = /^(08...|57P0[1-3]|53300)$/;
const unreachable = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND']);
const droppedConnection = /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/;

/**
 * True when `error` (a pg error, or TypeORM's wrapping of one) says PostgreSQL cannot be reached or is not
 * accepting work: a caller should hear 503 and try again, not 500.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message, driverError } = error as { code?: unknown; message?: unknown; driverError?: unknown };
  if (driverError !== undefined && driverError !== error && isDatabaseUnavailable(driverError)) return true;
  if (typeof code === 'string' && (unreachable.has(code) || unavailableStates.test(code))) return true;
  return typeof message === 'string' && droppedConnection.test(message);
}

/** True when PostgreSQL cancelled a statement because it ran past `statement_timeout` (SQLSTATE 57014). */
export function isStatementTimeout(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, driverError } = error as { code?: unknown; driverError?: unknown };
  return code === '57014' || (driverError !== undefined && driverError !== error && isStatementTimeout(driverError));
}
