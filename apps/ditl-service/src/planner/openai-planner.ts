import { cycleLengthDays, type DitlPlan, ditlPlanSchema, NOT_SPECIFIED, type OnboardingAnswers } from '@spark/contracts';
import OpenAI from 'openai';
import { z } from 'zod';
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

const systemPrompt = [
  'You are a habit coach writing a personalised "Day in the Life" presentation for a new client of The Spark.',
  'Write 5 to 7 slides, one per moment of their typical day, each with a concrete habit and a "spark" (a photo or note) to capture.',
  'Fit the habits to their goal, challenge and activity level. Include the weekly rhythm: Sunday alignment, Friday check-in with the coach, and rest.',
  'Be warm, specific and brief. Plain text only, no markdown.',
].join(' ');

function describe(answers: OnboardingAnswers): string {
  return JSON.stringify({
    firstName: answers.firstName,
    goal: answers.transformationGoal,
    goalTags: answers.goalTags,
    age: answers.age,
    activityLevel: answers.activityLevel,
    gender: answers.gender ?? NOT_SPECIFIED,
    occupation: answers.occupation ?? NOT_SPECIFIED,
    familyStatus: answers.familyStatus ?? NOT_SPECIFIED,
    typicalDay: answers.typicalDay,
    biggestChallenge: answers.biggestChallenge,
    currentWin: answers.currentWin ?? NOT_SPECIFIED,
    evolutionDays: cycleLengthDays(answers.customEvolutionDays),
  });
}

/** Any OpenAI-compatible chat-completions server, asked for structured output and checked with zod. */
export class OpenAiPlanner implements DitlPlanner {
  private readonly client: OpenAI;

  constructor(private readonly options: OpenAiPlannerOptions) {
    // Retries belong to the worker (with back-off and a status update), so the SDK makes one try per call.
    this.client = new OpenAI({
      apiKey: options.apiKey ?? 'not-needed-for-this-server',
      baseURL: options.baseUrl,
      timeout: options.timeoutMs,
      maxRetries: 0,
    });
  }

  async plan(answers: OnboardingAnswers): Promise<PlannedPresentation> {
    const started = Date.now();
    const completion = await this.request(answers).catch((error: unknown) => {
      // Some runtimes surface the SDK's abort as a plain connection error; the clock tells them apart.
      if (error instanceof OpenAI.APIConnectionError && Date.now() - started >= this.options.timeoutMs) {
        throw new Error(`The model call timed out after ${this.options.timeoutMs} ms`);
      }
      throw error;
    });
    return { plan: parsePlan(completion.choices[0]?.message.content ?? null), planner: 'openai' };
  }

  private request(answers: OnboardingAnswers) {
    return this.client.chat.completions.create({
      model: this.options.model,
      messages: [
        { role: 'system', content: systemPrompt },
        { role: 'user', content: describe(answers) },
      ],
      response_format: { type: 'json_schema', json_schema: { name: 'ditl_plan', strict: true, schema: planJsonSchema } },
    });
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
