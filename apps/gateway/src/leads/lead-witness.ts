import type { SigningKeys } from '@spark/config';
import type { PayloadOf } from '@spark/contracts';
import { signedLeadSubmission } from '@spark/messaging';

/**
 * Signs, for the notifier, that a visitor submitted this interest form (the route is public). The notifier sends
 * neither the lead's confirmation nor the team's alert without it, whatever the leads-service queues.
 */
export class LeadWitness {
  constructor(private readonly keys: SigningKeys) {}

  witness(form: Omit<PayloadOf<'leads.create'>, 'submission'>): PayloadOf<'leads.create'> {
    return { ...form, submission: signedLeadSubmission(this.keys, form) };
  }
}
