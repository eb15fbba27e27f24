import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { validPlan } from './ditl-recorded-model';

export type FakeModelMode = 'valid' | 'invalid' | 'hang' | 'refuse' | 'cut-off';

export interface FakeModelCall {
  model: string;
  responseFormat: unknown;
  /** The cap on the answer's length the client asked for (`max_completion_tokens`), if any. */
  maxCompletionTokens: number | undefined;
  userMessage: string;
  messages: { role: string; content: string }[];
}

/** An OpenAI-compatible chat-completions server on loopback, for the real SDK to talk to over HTTP. */
export interface FakeModel {
  baseUrl: string;
  mode: FakeModelMode;
  /** Recorded answers (a plan, a coach's draft…) given in order, one per call, before `mode` answers again. */
  replies: object[];
  calls: FakeModelCall[];
  /** How long each answer takes: a slow model, for a test that stops a worker mid-call. */
  delayMs: number;
  close(): Promise<void>;
}

const readBody = async (request: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
    model: string;
    response_format: unknown;
    max_completion_tokens?: number;
    messages: { role: string; content: string }[];
  };
};

const completion = (model: string, content: string, finishReason: 'stop' | 'length' = 'stop') => ({
  id: 'chatcmpl-fake',
  object: 'chat.completion',
  created: Math.floor(Date.now() / 1000),
  model,
  choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, finish_reason: finishReason, logprobs: null }],
  usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
});

export async function startFakeModel(): Promise<FakeModel> {
  const server: Server = createServer((request, response) => {
    void readBody(request).then(async (body) => {
      fake.calls.push({
        model: body.model,
        responseFormat: body.response_format,
        maxCompletionTokens: body.max_completion_tokens,
        userMessage: body.messages.find((m) => m.role === 'user')?.content ?? '',
        messages: body.messages,
      });
      if (fake.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, fake.delayMs));
      const recorded = fake.replies.shift();
      if (recorded) {
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(completion(body.model, JSON.stringify(recorded))));
        return;
      }
      // Hang: never answer, so the client's own timeout has to end the call.
      if (fake.mode === 'hang') return;
      // Refuse: a 400 as the API gives for a request it will never accept (a bad model name, a key without access).
      if (fake.mode === 'refuse') {
        response
          .writeHead(400, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message: 'The model `gpt-nope` does not exist', type: 'invalid_request_error', code: 'model_not_found' } }));
        return;
      }
      // Cut off: the answer stopped at the request's token cap, mid-JSON, as the API ends an answer that would run longer.
      if (fake.mode === 'cut-off') {
        const cut = JSON.stringify(validPlan).slice(0, 200);
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(completion(body.model, cut, 'length')));
        return;
      }
      // Invalid: JSON that the zod plan schema rejects (too few slides, no rhythm).
      const content = fake.mode === 'valid' ? JSON.stringify(validPlan) : JSON.stringify({ title: 'x', slides: [] });
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(completion(body.model, content)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const fake: FakeModel = {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    mode: 'valid',
    replies: [],
    delayMs: 0,
    calls: [],
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return fake;
}
