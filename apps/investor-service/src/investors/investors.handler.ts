import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import type { PayloadOf } from '@spark/contracts';
import { CampaignsService } from '../campaigns/campaigns.service';
import { InvestorsService } from './investors.service';

@Controller()
export class InvestorsHandler {
  constructor(
    private readonly investors: InvestorsService,
    private readonly campaigns: CampaignsService,
  ) {}

  @MessagePattern('investor.register')
  register(@Payload() request: PayloadOf<'investor.register'>) {
    return this.investors.register(request);
  }

  @MessagePattern('investor.create')
  create(@Payload() request: PayloadOf<'investor.create'>) {
    return this.investors.create(request);
  }

  @MessagePattern('investor.list')
  async list(@Payload() request: PayloadOf<'investor.list'>) {
    // "Last email:" dates stay true even when nobody waited for a campaign's outcome.
    await this.campaigns.reconcileQueued();
    return this.investors.list(request);
  }

  @MessagePattern('investor.generate-access-code')
  generateAccessCode(@Payload() request: PayloadOf<'investor.generate-access-code'>) {
    return this.investors.generateAccessCode(request);
  }

  @MessagePattern('investor.reissue-access-code')
  reissueAccessCode(@Payload() request: PayloadOf<'investor.reissue-access-code'>) {
    return this.investors.reissueAccessCode(request);
  }

  @MessagePattern('investor.redeem-access-code')
  redeemAccessCode(@Payload() request: PayloadOf<'investor.redeem-access-code'>) {
    return this.investors.redeemAccessCode(request);
  }

  @MessagePattern('investor.send-email')
  sendEmail(@Payload() request: PayloadOf<'investor.send-email'>) {
    return this.campaigns.send(request);
  }

  @MessagePattern('investor.get-campaign')
  getCampaign(@Payload() request: PayloadOf<'investor.get-campaign'>) {
    return this.campaigns.get(request);
  }
}
