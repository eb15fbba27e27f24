import OpenAI from 'openai';
import { z } from 'zod';

export interface StructuredChatOptions {
  apiKey?: string;
  baseUrl?: string;
  model: string;
  timeoutMs: number;
}

/** The model answered, but not with what the schema accepts: worth another try. */
export class InvalidModelOutputError extends Error {
  constructor(what: string, detail: string) {
    super(`The model's answer is not a valid ${what}: ${detail}`);
    this.name = 'InvalidModelOutputError';
  }
}

export type ChatMessage = { role: 'system' | 'user' | 'assistant'; content: string };

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

/** Parses a model's answer with the schema; `what` names it in the error ("DITL plan"). */
export function parseAnswer<T>(schema: z.ZodType<T>, what: string, content: string | null): T {
  if (!content) throw new InvalidModelOutputError(what, 'empty answer');
  let json: unknown;
  try {
    json = JSON.parse(content);
  } catch {
    throw new InvalidModelOutputError(what, 'not JSON');
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new InvalidModelOutputError(what, parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; '));
  return parsed.data;
}

/**
 * Any OpenAI-compatible chat-completions server asked for JSON in the shape of one zod schema (strict
 * structured output). One try per call: retries and the checks of what the answer says belong to the caller.
 */
export class StructuredChat<T> {
  private readonly client: OpenAI;
  private readonly jsonSchema: Record<string, unknown>;

  constructor(
    private readonly options: StructuredChatOptions,
    private readonly answer: { name: string; what: string; schema: z.ZodType<T> },
  ) {
    this.client = new OpenAI({ apiKey: options.apiKey ?? 'not-needed-for-this-server', baseURL: options.baseUrl, timeout: options.timeoutMs, maxRetries: 0 });
    this.jsonSchema = withoutLengthLimits(z.toJSONSchema(answer.schema)) as Record<string, unknown>;
  }

  /** The parsed answer and its raw text (to send back in the conversation when asking for a revision). */
  async ask(messages: ChatMessage[]): Promise<{ value: T; content: string }> {
    const started = Date.now();
    const completion = await this.client.chat.completions
      .create({
        model: this.options.model,
        messages,
        response_format: { type: 'json_schema', json_schema: { name: this.answer.name, strict: true, schema: this.jsonSchema } },
      })
      .catch((error: unknown) => {
        // Some runtimes surface the SDK's abort as a plain connection error; the clock tells them apart.
        if (error instanceof OpenAI.APIConnectionError && Date.now() - started >= this.options.timeoutMs) {
          throw new Error(`The model call timed out after ${this.options.timeoutMs} ms`);
        }
        throw error;
      });
    const content = completion.choices[0]?.message.content ?? null;
    return { value: parseAnswer(this.answer.schema, this.answer.what, content), content: content ?? '' };
  }
}
