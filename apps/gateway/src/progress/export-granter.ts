import type { SigningKeys } from '@spark/config';
import type { ExportGrant } from '@spark/contracts';
import { signedExportGrant } from '@spark/messaging';

/**
 * Signs, for each service holding part of the export, that an export of this client's data was asked for (by the
 * client or an admin, as the route checked): the progress service building it reads nobody's account, Day in the Life,
 * lead or investor entry without one, and the address the leads and investors are matched by is the account's.
 */
export class ExportGranter {
  constructor(private readonly keys: SigningKeys) {}

  grant(client: { userId: string; email: string }): ExportGrant {
    return signedExportGrant(this.keys, client);
  }
}
