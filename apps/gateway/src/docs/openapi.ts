import { createLeadRequestSchema, createLeadResponseSchema, errorBodySchema, leadSchema, setChallengeRequestSchema } from '@spark/contracts';
import type { InternalPage } from '@spark/runtime';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

interface RouteSchemas {
  summary: string;
  request?: z.ZodType;
  response?: z.ZodType;
}

/**
 * Request and response schemas of documented routes, keyed "METHOD /path". The route list itself is
 * collected from Fastify as routes register, so an undocumented route still shows up.
 */
export const documentedRoutes: Record<string, RouteSchemas> = {
  'POST /api/leads': { summary: 'Express interest (the interest form)', request: createLeadRequestSchema, response: createLeadResponseSchema },
  'PATCH /api/leads/challenge': { summary: "Answer the thank-you page's challenge question (lead-scoped token)", request: setChallengeRequestSchema, response: leadSchema },
};

const jsonSchema = (schema: z.ZodType) => z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });

/**
 * The OpenAPI document (`/api/docs/openapi.json`) and a readable index (`/api/docs`) for the internal
 * port: the route list is an attacker's map, so the public port does not serve it.
 */
export function collectOpenApi(fastify: FastifyInstance, version: string): Record<'/api/docs' | '/api/docs/openapi.json', InternalPage> {
  const routes: { method: string; url: string }[] = [];
  fastify.addHook('onRoute', (route) => {
    const methods = [route.method].flat().filter((method) => method !== 'HEAD');
    if (route.url.startsWith('/api/')) for (const method of methods) routes.push({ method, url: route.url });
  });
  const document = () => {
    const paths: Record<string, Record<string, object>> = {};
    for (const { method, url } of routes) {
      const documented = documentedRoutes[`${method} ${url}`];
      const path = url.replace(/:(\w+)/g, '{$1}');
      (paths[path] ??= {})[method.toLowerCase()] = {
        summary: documented?.summary ?? `${method} ${url}`,
        ...(documented?.request ? { requestBody: { content: { 'application/json': { schema: jsonSchema(documented.request) } } } } : {}),
        responses: {
          '2XX': { description: 'Success', ...(documented?.response ? { content: { 'application/json': { schema: jsonSchema(documented.response) } } } : {}) },
          default: { description: 'Error', content: { 'application/json': { schema: jsonSchema(errorBodySchema) } } },
        },
      };
    }
    return { openapi: '3.1.0', info: { title: 'Spark API', version }, paths };
  };
  const index = () => {
    const rows = routes
      .map(({ method, url }) => `<tr><td><code>${method}</code></td><td><code>${url}</code></td><td>${documentedRoutes[`${method} ${url}`]?.summary ?? ''}</td></tr>`)
      .join('');
    return `<!doctype html><title>Spark API</title><body style="font-family:system-ui;max-width:900px;margin:40px auto"><h1>Spark API</h1><p>Machine-readable: <a href="/api/docs/openapi.json">openapi.json</a>. Errors share one shape: statusCode, code, message, fieldErrors, correlationId.</p><table cellpadding="6">${rows}</table></body>`;
  };
  return {
    '/api/docs': async () => ({ contentType: 'text/html; charset=utf-8', body: index() }),
    '/api/docs/openapi.json': async () => ({ contentType: 'application/json', body: JSON.stringify(document()) }),
  };
}
