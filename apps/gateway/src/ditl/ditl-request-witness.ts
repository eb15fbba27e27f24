import type { SigningKeys } from '@spark/config';
import type { MailApproval } from '@spark/contracts';
import { signedDitlRequest } from '@spark/messaging';

/**
 * Signs, for the notifier, that the signed-in client asked for a Day in the Life at their address under the first name
 * they gave. The notifier sends no "Day in the Life is ready" e-mail without it, whatever the ditl-service queues.
 */
export class DitlRequestWitness {
  constructor(private readonly keys: SigningKeys) {}

  witness(email: string, firstName: string): MailApproval {
    return signedDitlRequest(this.keys, { email, firstName });
  }
}
