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

/**
 * The model's answer reached its cap and was cut off. Not worth another try: what made it long (often the client's
 * own text asking for more) is in the next request too.
 */
export class ModelAnswerCutOffError extends Error {
  constructor(what: string, maxTokens: number) {
    super(`The model's ${what} reached its cap of ${maxTokens} tokens and was cut off`);
    this.name = 'ModelAnswerCutOffError';
  }
}

export type ChatMessage = { role: 'system' | 'user' | 'assistant'; content: string };

/**
 * Characters per token assumed when sizing an answer's cap. English JSON runs about four; the lower figure leaves
 * room for languages that take more tokens per character, so a valid answer is never cut off.
 */
const CHARS_PER_TOKEN = 3;

/** The length of the longest JSON text `schema` accepts, from its length and item limits; every string needs a maximum. */
export function longestAnswerChars(schema: z.ZodType): number {
  const longest = (node: JsonSchemaNode): number => {
    if (node.enum) return Math.max(...node.enum.map((value) => JSON.stringify(value).length));
    if (node.type === 'string' && node.maxLength !== undefined) return node.maxLength + 2;
    // An opening bracket, then each item or entry followed by a comma or the closing bracket.
    if (node.type === 'array' && node.items && node.maxItems !== undefined) return Math.max(2, 1 + node.maxItems * (longest(node.items) + 1));
    if (node.type === 'object' && node.properties) {
      const entries = Object.entries(node.properties);
      return Math.max(2, 1 + entries.reduce((sum, [key, value]) => sum + JSON.stringify(key).length + 1 + longest(value) + 1, 0));
    }
    throw new Error(`No longest answer for a schema node without limits: ${JSON.stringify(node)}`);
  };
  return longest(z.toJSONSchema(schema) as JsonSchemaNode);
}

interface JsonSchemaNode {
  type?: string;
  enum?: unknown[];
  maxLength?: number;
  maxItems?: number;
  items?: JsonSchemaNode;
  properties?: Record<string, JsonSchemaNode>;
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
  private readonly maxTokens: number;

  /** `maxAnswerChars`: the longest answer worth reading; the model is stopped (and billed) at about that length. */
  constructor(
    private readonly options: StructuredChatOptions,
    private readonly answer: { name: string; what: string; schema: z.ZodType<T>; maxAnswerChars: number },
  ) {
    this.client = new OpenAI({ apiKey: options.apiKey ?? 'not-needed-for-this-server', baseURL: options.baseUrl, timeout: options.timeoutMs, maxRetries: 0 });
    this.jsonSchema = withoutLengthLimits(z.toJSONSchema(answer.schema)) as Record<string, unknown>;
    this.maxTokens = Math.ceil(answer.maxAnswerChars / CHARS_PER_TOKEN);
  }

  /** The parsed answer and its raw text (to send back in the conversation when asking for a revision). */
  async ask(messages: ChatMessage[]): Promise<{ value: T; content: string }> {
    const started = Date.now();
    const completion = await this.client.chat.completions
      .create({
        model: this.options.model,
        messages,
        max_completion_tokens: this.maxTokens,
        response_format: { type: 'json_schema', json_schema: { name: this.answer.name, strict: true, schema: this.jsonSchema } },
      })
      .catch((error: unknown) => {
        // Some runtimes surface the SDK's abort as a plain connection error; the clock tells them apart.
        if (error instanceof OpenAI.APIConnectionError && Date.now() - started >= this.options.timeoutMs) {
          throw new Error(`The model call timed out after ${this.options.timeoutMs} ms`);
        }
        throw error;
      });
    const choice = completion.choices[0];
    if (choice?.finish_reason === 'length') throw new ModelAnswerCutOffError(this.answer.what, this.maxTokens);
    const content = choice?.message.content ?? null;
    return { value: parseAnswer(this.answer.schema, this.answer.what, content), content: content ?? '' };
  }
}
