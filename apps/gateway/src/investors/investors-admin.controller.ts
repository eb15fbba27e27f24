import { Body, Controller, Get, HttpCode, Inject, Param, Post, Put, Query, Req } from '@nestjs/common';
import {
  deckUploadedSchema,
  listInvestorsRequestSchema,
  type PayloadOf,
  registerInvestorRequestSchema,
  sendInvestorEmailRequestSchema,
  uuidSchema,
} from '@spark/contracts';
import { DomainError } from '@spark/errors';
import { ServiceBus } from '@spark/messaging';
import type { FastifyRequest } from 'fastify';
import { Roles } from '../auth/auth.decorators';
import { Audited } from '../audit/audited.decorator';
import { UPLOAD_MAX_FILE_BYTES } from '../http/upload-route';
import { UploadRoute } from '../http/upload-slots';
import { ZodPipe } from '../http/zod-body.pipe';
import { CampaignApprover } from './campaign-approver';
import { type DeckFile, DeckFiles } from './deck-files';
import { cleanDeck, readUploadedFile } from './uploaded-file';
import { Responds } from '../docs/responds.decorator';

const DECK_MAX_BYTES = UPLOAD_MAX_FILE_BYTES;

/** The coach dashboard's Investors tab: admins only. */
@Roles('admin')
@Controller('api/investors')
export class InvestorsAdminController {
  constructor(
    private readonly bus: ServiceBus,
    @Inject(DeckFiles) private readonly deck: DeckFiles,
    private readonly approver: CampaignApprover,
  ) {}

  @Responds('investor.list')
  @Get()
  list(@Query(new ZodPipe(listInvestorsRequestSchema)) query: PayloadOf<'investor.list'>) {
    return this.bus.request('investor.list', query);
  }

  @Responds('investor.create')
  @Post()
  @HttpCode(201)
  @Audited('investor.add', { type: 'investor', id: { answer: ['id'] }, label: { answer: ['email'] } })
  create(@Body(new ZodPipe(registerInvestorRequestSchema)) body: PayloadOf<'investor.create'>) {
    return this.bus.request('investor.create', body);
  }

  /** The only answer with the code in clear: it is stored hashed. 409 when the investor has one (reissue it). */
  @Responds('investor.generate-access-code')
  @Post(':id/access-code')
  @HttpCode(200)
  @Audited('investor.code-issue', { type: 'investor', id: { param: 'id' } })
  generateAccessCode(@Param('id', new ZodPipe(uuidSchema)) investorId: string) {
    return this.bus.request('investor.generate-access-code', { investorId });
  }

  /** A new code for the investor; the old one stops working at once. */
  @Responds('investor.reissue-access-code')
  @Post(':id/access-code/reissue')
  @HttpCode(200)
  @Audited('investor.code-reissue', { type: 'investor', id: { param: 'id' } })
  reissueAccessCode(@Param('id', new ZodPipe(uuidSchema)) investorId: string) {
    return this.bus.request('investor.reissue-access-code', { investorId });
  }

  /** `send-investor-email`: answers the campaign as queued (every delivery pending); the dashboard follows it below. */
  @Responds('investor.send-email')
  @Post('emails')
  @HttpCode(200)
  @Audited('investor.campaign-send', { type: 'campaign', id: { answer: ['id'] }, label: { body: ['subject'] } })
  send(@Body(new ZodPipe(sendInvestorEmailRequestSchema)) body: Omit<PayloadOf<'investor.send-email'>, 'approval'>) {
    return this.bus.request('investor.send-email', this.approver.approve(body));
  }

  @Responds('investor.get-campaign')
  @Get('emails/:campaignId')
  campaign(@Param('campaignId', new ZodPipe(uuidSchema)) campaignId: string) {
    return this.bus.request('investor.get-campaign', { campaignId });
  }

  /** Replaces the full deck (`full`) or the preview embedded on /donate (`preview`). */
  @Responds(deckUploadedSchema)
  @Put('deck/:file')
  @Audited('investor.deck-upload', { type: 'deck', id: { param: 'file' } })
  @UploadRoute()
  async upload(@Req() request: FastifyRequest, @Param('file') file: string) {
    if (file !== 'full' && file !== 'preview') throw new DomainError('NOT_FOUND', 'Upload the full deck or its preview.');
    const { bytes } = await readUploadedFile(request, DECK_MAX_BYTES);
    const deck = await cleanDeck(bytes);
    if (!deck) throw new DomainError('UNSUPPORTED_MEDIA_TYPE', 'The deck must be a PDF or an image.');
    await this.deck.store(file satisfies DeckFile, deck.bytes, deck.contentType);
    return { uploaded: file };
  }
}
