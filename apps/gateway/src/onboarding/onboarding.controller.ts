import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { type FinishOnboardingResponse, finishOnboardingResponseSchema, type OnboardingAnswers, onboardingAnswersSchema } from '@spark/contracts';
import { ServiceBus } from '@spark/messaging';
import type { AuthenticatedUser } from '../auth/access-token.guard';
import { CurrentUser, Roles } from '../auth/auth.decorators';
import { ZodPipe } from '../http/zod-body.pipe';
import { Responds } from '../docs/responds.decorator';

@Controller('api/onboarding')
export class OnboardingController {
  constructor(private readonly bus: ServiceBus) {}

  /**
   * Finishes onboarding in one request: the answers and the first evolution (progress-service),
   * then the user's metadata (auth-service). The gateway does both, not the SPA, so the browser
   * never holds half a finished onboarding; both steps are idempotent, so a retry is safe. Clients only, as capture
   * (sparks.controller.ts): the answers start the person's progress.
   */
  @Responds(finishOnboardingResponseSchema)
  @Roles('client')
  @Post()
  @HttpCode(200)
  async finish(
    @CurrentUser() user: AuthenticatedUser,
    @Body(new ZodPipe(onboardingAnswersSchema)) answers: OnboardingAnswers,
  ): Promise<FinishOnboardingResponse> {
    const saved = await this.bus.request('progress.complete-onboarding', { userId: user.id, email: user.email, answers });
    const updated = await this.bus.request('auth.update-user', {
      userId: user.id,
      changes: {
        full_name: saved.onboarding.full_name,
        transformation_goal: saved.onboarding.transformation_goal,
        onboarding_completed_at: saved.onboarding.completed_at,
      },
    });
    return { ...saved, onboardingCompletedAt: updated.user_metadata.onboarding_completed_at ?? saved.onboarding.completed_at };
  }
}
