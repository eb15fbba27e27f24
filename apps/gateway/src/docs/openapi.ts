import { type Type } from '@nestjs/common';
import { HTTP_CODE_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { FASTIFY_ROUTE_CONFIG_METADATA } from '@nestjs/platform-fastify/constants';
import { errorBodySchema, idempotencyKeyHeaderSchema } from '@spark/contracts';
import type { FastifyContextConfig } from 'fastify';
import type { InternalPage } from '@spark/runtime';
import { z } from 'zod';
import { type DeclaredRoute, declaredRoutes } from '../auth/route-access';
import { ZodPipe } from '../http/zod-body.pipe';
import { RESPONDS, type ResponseSpec } from './responds.decorator';

const jsonSchema = (schema: z.ZodType, io: 'input' | 'output') => z.toJSONSchema(schema, { io, unrepresentable: 'any' });
const errorResponse = (description: string) => ({ description, content: { 'application/json': { schema: jsonSchema(errorBodySchema, 'output') } } });

/** The contract schema of each validated argument of a handler (body, query, path parameter). */
function validatedArguments(route: DeclaredRoute): { kind: RouteParamtypes; name?: string; schema: z.ZodType }[] {
  const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, route.controller, route.handlerName) ?? {}) as Record<string, { data?: string; pipes?: unknown[] }>;
  return Object.entries(args).flatMap(([key, argument]) => {
    const pipe = argument.pipes?.find((candidate): candidate is ZodPipe<z.ZodType> => candidate instanceof ZodPipe);
    return pipe ? [{ kind: Number(key.split(':')[0]) as RouteParamtypes, name: argument.data, schema: pipe.schema }] : [];
  });
}

/** Query, path or header parameters from an object schema (each field one parameter), or one named path parameter. */
function parametersOf(location: 'query' | 'path' | 'header', schema: z.ZodType, name?: string): object[] {
  const json = jsonSchema(schema, 'input') as { properties?: Record<string, object>; required?: string[] };
  if (name) return [{ name, in: location, required: true, schema: json }];
  return Object.entries(json.properties ?? {}).map(([field, fieldSchema]) => ({
    name: field,
    in: location,
    required: location === 'path' || (json.required ?? []).includes(field),
    schema: fieldSchema,
  }));
}

/** One route's operation: its validated input, its success answer and the errors its access and input allow. */
export function operationOf(route: DeclaredRoute): object {
  const handler = (route.controller.prototype as Record<string, object>)[route.handlerName];
  const responds = handler ? (Reflect.getMetadata(RESPONDS, handler) as ResponseSpec | undefined) : undefined;
  if (!responds) throw new Error(`${route.route} declares no answer (@Responds or @RespondsWithout)`);
  const validated = validatedArguments(route);
  const body = validated.find((argument) => argument.kind === RouteParamtypes.BODY);
  const parameters = validated.flatMap((argument) =>
    argument.kind === RouteParamtypes.QUERY
      ? parametersOf('query', argument.schema)
      : argument.kind === RouteParamtypes.PARAM
        ? parametersOf('path', argument.schema, argument.name)
        : [],
  );
  const config = (handler ? Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, handler) : undefined) as FastifyContextConfig | undefined;
  if (config?.takesIdempotencyKey) parameters.push(...parametersOf('header', idempotencyKeyHeaderSchema));
  const errors: Record<string, object> = {
    ...(validated.length > 0 ? { '400': errorResponse('Invalid input: `fieldErrors` names each field') } : {}),
    ...(route.access === 'public' ? {} : { '401': errorResponse('Not signed in, or the session ended') }),
    ...(Array.isArray(route.access) ? { '403': errorResponse(`Only for: ${route.access.join(', ')}`) } : {}),
    '429': errorResponse('Too many requests (`Retry-After` says when to try again)'),
    '503': errorResponse('A service is unavailable; try again'),
    default: errorResponse('Any other error, in the same shape (404 not found, 409 conflict, 413 too large, 415 wrong content type)'),
  };
  // Nest's own default when a route sets no @HttpCode: 201 for POST, 200 otherwise.
  const status = (Reflect.getMetadata(HTTP_CODE_METADATA, handler as object) as number | undefined) ?? (route.method === 'POST' ? 201 : 200);
  const success = responds.schema
    ? { description: 'Success', content: { 'application/json': { schema: jsonSchema(responds.schema, 'output') } } }
    : { description: responds.description ?? 'Success' };
  return {
    operationId: `${route.controller.name}.${route.handlerName}`,
    'x-access': route.access === 'public' || route.access === 'signed-in' ? route.access : route.access.join(', '),
    ...(route.access === 'public' ? {} : { security: [{ bearer: [] }] }),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(body ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(body.schema, 'input') } } } } : {}),
    responses: { [String(status)]: success, ...errors },
  };
}

/** The OpenAPI 3.1 document of every route the controllers declare, built from their decorators and contract schemas. */
export function openApiDocument(controllers: readonly Type[], version: string) {
  const paths: Record<string, Record<string, object>> = {};
  for (const route of declaredRoutes(controllers)) {
    (paths[route.path.replace(/:(\w+)/g, '{$1}')] ??= {})[route.method.toLowerCase()] = operationOf(route);
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Spark API', version },
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    paths,
  };
}

/**
 * The OpenAPI document (`/api/docs/openapi.json`) and a readable index (`/api/docs`) for the internal
 * port: the route list is an attacker's map, so the public port does not serve it.
 */
export function openApiPages(controllers: readonly Type[], version: string): Record<'/api/docs' | '/api/docs/openapi.json', InternalPage> {
  let document: string | undefined;
  const rows = declaredRoutes(controllers)
    .map(
      ({ method, path, access }) =>
        `<tr><td><code>${method}</code></td><td><code>${path}</code></td><td>${Array.isArray(access) ? access.join(', ') : access}</td></tr>`,
    )
    .join('');
  const index = `<!doctype html><title>Spark API</title><body style="font-family:system-ui;max-width:900px;margin:40px auto"><h1>Spark API</h1><p>Machine-readable, with every request, response and error schema: <a href="/api/docs/openapi.json">openapi.json</a>. Errors share one shape: statusCode, code, message, fieldErrors, correlationId.</p><table cellpadding="6">${rows}</table></body>`;
  return {
    '/api/docs': async () => ({ contentType: 'text/html; charset=utf-8', body: index }),
    '/api/docs/openapi.json': async () => ({ contentType: 'application/json', body: (document ??= JSON.stringify(openApiDocument(controllers, version))) }),
  };
}
