import type { SigningKeys } from '@spark/config';
import type { PayloadOf } from '@spark/contracts';
import { signedCampaignApproval } from '@spark/messaging';

type Campaign = Omit<PayloadOf<'investor.send-email'>, 'approval'>;

/**
 * Signs, for the notifier, that the admin behind a request is sending this text to each of these addresses (the route
 * is an admin's alone). The notifier sends no investor e-mail without it, whatever the investor-service queues.
 */
export class CampaignApprover {
  constructor(private readonly keys: SigningKeys) {}

  approve(campaign: Campaign): PayloadOf<'investor.send-email'> {
    return { ...campaign, approval: signedCampaignApproval(this.keys, campaign) };
  }
}
