import { type DitlPlan, ditlPlanSchema, type OnboardingAnswers } from '@spark/contracts';
import OpenAI from 'openai';
import { z } from 'zod';
import { describeClient, revisionRequest, systemPrompt } from './model-prompt';
import { buildOfflinePlan } from './offline-planner';
import { checkPlan } from './plan-checks';
import { type DayPlanContext, planContext } from './plan-context';
import type { DitlPlanner, PlannedPresentation } from './planner';

export interface OpenAiPlannerOptions {
  apiKey?: string;
  baseUrl?: string;
  model: string;
  timeoutMs: number;
}

/** The model answered, but not with a plan the schema accepts: worth another try. */
export class InvalidModelOutputError extends Error {
  constructor(detail: string) {
    super(`The model's answer is not a valid DITL plan: ${detail}`);
    this.name = 'InvalidModelOutputError';
  }
}

// Strict structured output accepts no string-length keywords; the zod schema still enforces them on the answer.
function withoutLengthLimits(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutLengthLimits);
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key]) => key !== 'minLength' && key !== 'maxLength' && key !== '$schema')
      .map(([key, value]) => [key, withoutLengthLimits(value)]),
  );
}

const planJsonSchema = withoutLengthLimits(z.toJSONSchema(ditlPlanSchema)) as Record<string, unknown>;

type ChatMessage = { role: 'system' | 'user' | 'assistant'; content: string };

/**
 * Any OpenAI-compatible chat-completions server, asked for structured output and checked twice: by the
 * zod schema (an answer it rejects is an error the worker retries) and by the plan checks. A plan that
 * breaks the checks is sent back once with the violations listed; a second miss gives the client the
 * offline plan instead.
 */
export class OpenAiPlanner implements DitlPlanner {
  private readonly client: OpenAI;

  constructor(
    private readonly options: OpenAiPlannerOptions,
    private readonly fallback: (answers: OnboardingAnswers, context: DayPlanContext) => DitlPlan = buildOfflinePlan,
  ) {
    // Retries belong to the worker (with back-off and a status update), so the SDK makes one try per call.
    this.client = new OpenAI({
      apiKey: options.apiKey ?? 'not-needed-for-this-server',
      baseURL: options.baseUrl,
      timeout: options.timeoutMs,
      maxRetries: 0,
    });
  }

  async plan(answers: OnboardingAnswers): Promise<PlannedPresentation> {
    const context = planContext(answers);
    const conversation: ChatMessage[] = [
      { role: 'system', content: systemPrompt },
      { role: 'user', content: describeClient(context) },
    ];
    const first = await this.ask(conversation);
    const firstViolations = checkPlan(first.plan, context);
    if (!firstViolations.length) return { plan: first.plan, planner: 'openai' };
    const second = await this.ask([...conversation, { role: 'assistant', content: first.content }, { role: 'user', content: revisionRequest(firstViolations) }]);
    const secondViolations = checkPlan(second.plan, context);
    if (!secondViolations.length) return { plan: second.plan, planner: 'openai', rejectedViolations: firstViolations };
    return { plan: this.fallback(answers, context), planner: 'offline', rejectedViolations: secondViolations };
  }

  private async ask(messages: ChatMessage[]): Promise<{ plan: DitlPlan; content: string }> {
    const started = Date.now();
    const completion = await this.client.chat.completions
      .create({
        model: this.options.model,
        messages,
        response_format: { type: 'json_schema', json_schema: { name: 'ditl_plan', strict: true, schema: planJsonSchema } },
      })
      .catch((error: unknown) => {
        // Some runtimes surface the SDK's abort as a plain connection error; the clock tells them apart.
        if (error instanceof OpenAI.APIConnectionError && Date.now() - started >= this.options.timeoutMs) {
          throw new Error(`The model call timed out after ${this.options.timeoutMs} ms`);
        }
        throw error;
      });
    const content = completion.choices[0]?.message.content ?? null;
    return { plan: parsePlan(content), content: content ?? '' };
  }
}

export function parsePlan(content: string | null): DitlPlan {
  if (!content) throw new InvalidModelOutputError('empty answer');
  let json: unknown;
  try {
    json = JSON.parse(content);
  } catch {
    throw new InvalidModelOutputError('not JSON');
  }
  const parsed = ditlPlanSchema.safeParse(json);
  if (!parsed.success) throw new InvalidModelOutputError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; '));
  return parsed.data;
}
