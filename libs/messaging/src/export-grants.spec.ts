import { developmentSigningKeys } from '@spark/config';
import { DomainError } from '@spark/errors';
import { EXPORT_GRANT_VALID_MS, ensureExportGranted, exportGrantRefusal, signedExportGrant } from './export-grants';

const keys = developmentSigningKeys();
const now = Date.parse('2026-11-30T12:00:00Z');
const client = '7c1d6f8e-1a2b-4c3d-8e9f-0a1b2c3d4e5f';
const other = '0b9c8d7e-6f5a-4b3c-9d2e-1f0a9b8c7d6e';
const asked = { userId: client, email: 'maya@spark.test' };

describe('export grants', () => {
  it("lets each service hand over the client's own part of a lately asked-for export", () => {
    const grant = signedExportGrant(keys, asked, now);
    expect(exportGrantRefusal(keys, 'auth', { userId: client, grant }, now)).toBeUndefined();
    expect(exportGrantRefusal(keys, 'ditl', { userId: client, grant }, now + EXPORT_GRANT_VALID_MS)).toBeUndefined();
    expect(exportGrantRefusal(keys, 'leads', { userId: client, grant }, now)).toBeUndefined();
    expect(exportGrantRefusal(keys, 'investor', { userId: client, grant }, now)).toBeUndefined();
  });

  it.each([
    ['another client', { userId: other, grant: signedExportGrant(keys, asked, now) }, "a grant for another person's export"],
    ['a grant changed after signing', { userId: other, grant: { ...signedExportGrant(keys, asked, now), userId: other } }, 'a grant the gateway did not sign'],
    [
      'a grant whose address was changed after signing',
      { userId: client, grant: { ...signedExportGrant(keys, asked, now), email: 'someone-else@spark.test' } },
      'a grant the gateway did not sign',
    ],
    ['a grant long past', { userId: client, grant: signedExportGrant(keys, asked, now - EXPORT_GRANT_VALID_MS - 1) }, 'a grant that is no longer current'],
    ['a grant from the future', { userId: client, grant: signedExportGrant(keys, asked, now + 5 * 60_000) }, 'a grant that is no longer current'],
  ])('refuses %s', (_case, request, refusal) => {
    expect(exportGrantRefusal(keys, 'auth', request, now)).toBe(refusal);
    expect(exportGrantRefusal(keys, 'ditl', request, now)).toBe(refusal);
    expect(exportGrantRefusal(keys, 'leads', request, now)).toBe(refusal);
    expect(exportGrantRefusal(keys, 'investor', request, now)).toBe(refusal);
  });

  it("checks each service's own signature: the auth-service's does not pass for the ditl-service's", () => {
    const grant = signedExportGrant(keys, asked, now);
    const swapped = { ...grant, signatures: { ...grant.signatures, auth: grant.signatures.ditl, ditl: grant.signatures.auth } };
    expect(exportGrantRefusal(keys, 'auth', { userId: client, grant: swapped }, now)).toBe('a grant the gateway did not sign');
    expect(exportGrantRefusal(keys, 'ditl', { userId: client, grant: swapped }, now)).toBe('a grant the gateway did not sign');
  });

  it('refuses with 403 and says to ask again', () => {
    const request = { userId: other, grant: signedExportGrant(keys, asked, now) };
    expect(() => ensureExportGranted(keys, 'auth', request, now)).toThrow(
      new DomainError('FORBIDDEN', "This data export was refused: a grant for another person's export. Please ask for the export again."),
    );
  });

  it('cannot sign without the gateway’s keys', () => {
    expect(() => signedExportGrant(new Map(), asked, now)).toThrow('SIGNING_KEYS needs bus:auth/gateway');
  });
});
