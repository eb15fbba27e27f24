import type { SigningKeys } from '@spark/config';
import type { ExportGrant } from '@spark/contracts';
import { DomainError } from '@spark/errors';
import { gatewayStatement, isCurrentStatement } from './gateway-statements';

/**
 * How long after the request its export may still read the client's part: an export's job runs within minutes, its
 * retries included; one still waiting a day later (a worker down that long) is refused and the person asks again.
 */
export const EXPORT_GRANT_VALID_MS = 24 * 3600_000;

type ExportedService = keyof ExportGrant['signatures'];

const HEADER = 'export-grant\n';
const statements: Record<ExportedService, ReturnType<typeof gatewayStatement>> = {
  auth: gatewayStatement('auth', HEADER),
  ditl: gatewayStatement('ditl', HEADER),
  leads: gatewayStatement('leads', HEADER),
  investor: gatewayStatement('investor', HEADER),
};
const bodyOf = ({ userId, email, grantedAt }: Pick<ExportGrant, 'userId' | 'email' | 'grantedAt'>) => JSON.stringify([userId, email, grantedAt]);

/** The gateway's grant, for an export of the data of `userId` (whose account's address is `email`) that the client or an admin asked for now. */
export function signedExportGrant(keys: SigningKeys, { userId, email }: { userId: string; email: string }, grantedAt = Date.now()): ExportGrant {
  const body = bodyOf({ userId, email, grantedAt });
  const sign = (service: ExportedService) => statements[service].sign(keys, body);
  return { userId, email, grantedAt, signatures: { auth: sign('auth'), ditl: sign('ditl'), leads: sign('leads'), investor: sign('investor') } };
}

/** Why `service` refuses to hand the progress service `userId`'s part, or undefined when an export of it was asked for lately. */
export function exportGrantRefusal(
  keys: SigningKeys,
  service: ExportedService,
  request: { userId: string; grant: ExportGrant },
  now: number,
): string | undefined {
  const { grant } = request;
  if (!statements[service].isSignedBy(keys, bodyOf(grant), grant.signatures[service])) return 'a grant the gateway did not sign';
  if (grant.userId !== request.userId) return "a grant for another person's export";
  if (!isCurrentStatement(grant.grantedAt, now, EXPORT_GRANT_VALID_MS)) return 'a grant that is no longer current';
  return undefined;
}

/** Throws FORBIDDEN unless `service` may hand over `userId`'s part (`exportGrantRefusal`). */
export function ensureExportGranted(keys: SigningKeys, service: ExportedService, request: { userId: string; grant: ExportGrant }, now = Date.now()): void {
  const refusal = exportGrantRefusal(keys, service, request, now);
  if (refusal) throw new DomainError('FORBIDDEN', `This data export was refused: ${refusal}. Please ask for the export again.`);
}
