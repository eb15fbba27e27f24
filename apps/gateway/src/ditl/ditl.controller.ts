import { Body, Controller, Get, HttpCode, Param, Post, Res } from '@nestjs/common';
import {
  type CurrentDitlResponse,
  type DitlPresentationResponse,
  type DitlStatusResponse,
  type GenerateDitlResponse,
  generateDitlBodySchema,
  uuidSchema,
} from '@spark/contracts';
import { ServiceBus } from '@spark/messaging';
import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import type { AuthenticatedUser } from '../auth/access-token.guard';
import { CurrentUser, Roles } from '../auth/auth.decorators';
import { ZodPipe } from '../http/zod-body.pipe';
import { Responds } from '../docs/responds.decorator';
import { DitlRequestWitness } from './ditl-request-witness';
import { evolutionDaysOf } from './evolution-days';

@Controller('api/ditl/generations')
export class DitlController {
  constructor(
    private readonly bus: ServiceBus,
    private readonly witness: DitlRequestWitness,
  ) {}

  /** generate-ditl (docs/product.md §7): stores the request (queued) and answers its id at once. */
  @Responds('ditl.generate')
  @Roles('client')
  @Post()
  @HttpCode(202)
  async generate(
    @CurrentUser() user: AuthenticatedUser,
    @Body(new ZodPipe(generateDitlBodySchema)) body: z.output<typeof generateDitlBodySchema>,
  ): Promise<GenerateDitlResponse> {
    const answers = body.onboardingData;
    const requested = this.witness.witness(user.email, answers.firstName);
    const evolutionDays = await evolutionDaysOf(this.bus, user.id);
    return this.bus.request('ditl.generate', {
      userId: user.id,
      email: user.email,
      leadId: body.leadId,
      answers,
      requested,
      evolutionDays,
      requestId: body.requestId,
    });
  }

  /** The caller's newest finished presentation (null when none), which the client's home screen reopens. */
  @Responds('ditl.current')
  @Get('current')
  current(@CurrentUser() user: AuthenticatedUser): Promise<CurrentDitlResponse> {
    return this.bus.request('ditl.current', { userId: user.id });
  }

  /** check-ditl-status (docs/product.md §7); a client reads only its own generations, coaches and admins any. */
  @Responds('ditl.check-status')
  @Get(':generationId')
  status(@CurrentUser() user: AuthenticatedUser, @Param('generationId', new ZodPipe(uuidSchema)) generationId: string): Promise<DitlStatusResponse> {
    return this.bus.request('ditl.check-status', { generationId, reader: { userId: user.id, role: user.role } });
  }

  /**
   * The finished presentation after the same ownership check, as JSON ({ html }): the SPA holds its
   * token in memory, so it fetches the page and shows it in a sandboxed frame (no scripts, opaque origin).
   */
  @Responds('ditl.get-presentation')
  @Get(':generationId/presentation')
  async presentation(
    @CurrentUser() user: AuthenticatedUser,
    @Param('generationId', new ZodPipe(uuidSchema)) generationId: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<DitlPresentationResponse> {
    void reply.header('cache-control', 'private, no-store');
    return this.bus.request('ditl.get-presentation', { generationId, reader: { userId: user.id, role: user.role } });
  }
}
