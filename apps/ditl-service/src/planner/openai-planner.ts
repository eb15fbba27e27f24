import { type DitlPlan, ditlPlanSchema, type OnboardingAnswers } from '@spark/contracts';
import { type ChatMessage, longestAnswerChars, ModelAnswerCutOffError, StructuredChat, type StructuredChatOptions } from '@spark/writing';
import { describeClient, revisionRequest, systemPrompt } from './model-prompt';
import { buildOfflinePlan } from './offline-planner';
import { checkPlan } from './plan-checks';
import { type DayPlanContext, planContext } from './plan-context';
import type { DitlPlanner, PlannedPresentation } from './planner';

export type OpenAiPlannerOptions = StructuredChatOptions;

/**
 * Any OpenAI-compatible chat-completions server, asked for structured output and checked twice: by the
 * zod schema (an answer it rejects is an error the worker retries) and by the plan checks. A plan that
 * breaks the checks is sent back once with the violations listed; a second miss gives the client the
 * offline plan instead, as does an answer cut off at the longest plan the schema accepts.
 */
export class OpenAiPlanner implements DitlPlanner {
  private readonly chat: StructuredChat<DitlPlan>;

  constructor(
    options: OpenAiPlannerOptions,
    private readonly fallback: (context: DayPlanContext) => DitlPlan = buildOfflinePlan,
  ) {
    // Retries belong to the worker (with back-off and a status update), so each call is one try.
    this.chat = new StructuredChat(options, {
      name: 'ditl_plan',
      what: 'DITL plan',
      schema: ditlPlanSchema,
      maxAnswerChars: longestAnswerChars(ditlPlanSchema),
    });
  }

  async plan(answers: OnboardingAnswers, evolutionDays: number): Promise<PlannedPresentation> {
    const context = planContext(answers, evolutionDays);
    try {
      return await this.planWithModel(context);
    } catch (error) {
      // Answers asking for more than a plan holds would be cut off again on every try.
      if (error instanceof ModelAnswerCutOffError) return { plan: this.fallback(context), planner: 'offline', modelAnswerCutOff: true };
      throw error;
    }
  }

  private async planWithModel(context: DayPlanContext): Promise<PlannedPresentation> {
    const conversation: ChatMessage[] = [
      { role: 'system', content: systemPrompt },
      { role: 'user', content: describeClient(context) },
    ];
    const first = await this.ask(conversation);
    const firstViolations = checkPlan(first.plan, context);
    if (!firstViolations.length) return { plan: first.plan, planner: 'openai' };
    const second = await this.ask([
      ...conversation,
      { role: 'assistant', content: first.content },
      { role: 'user', content: revisionRequest(firstViolations) },
    ]);
    const secondViolations = checkPlan(second.plan, context);
    if (!secondViolations.length) return { plan: second.plan, planner: 'openai', rejectedViolations: firstViolations };
    return { plan: this.fallback(context), planner: 'offline', rejectedViolations: secondViolations };
  }

  private async ask(messages: ChatMessage[]): Promise<{ plan: DitlPlan; content: string }> {
    const { value, content } = await this.chat.ask(messages);
    return { plan: value, content };
  }
}
