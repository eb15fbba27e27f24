import type { SigningKeys } from '@spark/config';
import type { ExportGrant } from '@spark/contracts';
import { signedExportGrant } from '@spark/messaging';

/**
 * Signs, for the auth-service and the ditl-service, that an export of this client's data was asked for (by the client
 * or an admin, as the route checked): the progress service building it reads nobody's account or Day in the Life
 * without one.
 */
export class ExportGranter {
  constructor(private readonly keys: SigningKeys) {}

  grant(userId: string): ExportGrant {
    return signedExportGrant(this.keys, userId);
  }
}
