import { Controller, Get } from '@nestjs/common';
import { declaredRoutes } from '../auth/route-access';
import { gatewayControllers } from '../gateway.module';
import { openApiDocument } from './openapi';

type Operation = {
  requestBody?: { content: { 'application/json': { schema: { properties?: Record<string, unknown> } } } };
  parameters?: { name: string; in: string }[];
  responses: Record<string, { content?: { 'application/json': { schema: { properties?: Record<string, unknown> } } } }>;
  security?: unknown[];
};

const document = openApiDocument(gatewayControllers, 'test');
const operationOf = (route: string): Operation => {
  const [method = '', path = ''] = route.split(' ');
  return document.paths[path.replace(/:(\w+)/g, '{$1}')]?.[method.toLowerCase()] as Operation;
};

describe('the OpenAPI document', () => {
  const routes = declaredRoutes(gatewayControllers);

  it('documents every route the gateway serves, each with its success answer and its errors', () => {
    expect(routes.length).toBeGreaterThan(70);
    for (const { route, access } of routes) {
      const operation = operationOf(route);
      expect([route, operation === undefined]).toEqual([route, false]);
      const statuses = Object.keys(operation.responses);
      expect([route, statuses.some((status) => /^2\d\d$/.test(status)), statuses.includes('503'), statuses.includes('default')]).toEqual([
        route,
        true,
        true,
        true,
      ]);
      if (access !== 'public') expect([route, statuses.includes('401'), operation.security]).toEqual([route, true, [{ bearer: [] }]]);
      if (Array.isArray(access)) expect([route, statuses.includes('403')]).toEqual([route, true]);
    }
  });

  it('takes request and response schemas from the contracts', () => {
    const lead = operationOf('POST /api/leads');
    expect(Object.keys(lead.requestBody?.content['application/json'].schema.properties ?? {})).toEqual(expect.arrayContaining(['email', 'role']));
    expect(Object.keys(lead.responses['201']?.content?.['application/json'].schema.properties ?? {})).toEqual(expect.arrayContaining(['lead']));
    expect(Object.keys(operationOf('GET /api/progress/me/reminders').responses['200']?.content?.['application/json'].schema.properties ?? {})).toEqual(
      expect.arrayContaining(['enabled', 'localTime', 'quietHours', 'push']),
    );
    expect(operationOf('GET /api/coach/clients').parameters?.map((parameter) => `${parameter.in}:${parameter.name}`)).toEqual(
      expect.arrayContaining(['query:limit', 'query:cursor']),
    );
    expect(operationOf('GET /api/progress/me/exports/:exportId').parameters).toEqual([expect.objectContaining({ name: 'exportId', in: 'path' })]);
    expect(Object.keys(operationOf('POST /api/auth/sign-out').responses)).toContain('204');
  });

  it('refuses a route that does not say what it answers', () => {
    @Controller('api/undocumented')
    class UndocumentedController {
      @Get()
      list() {
        return [];
      }
    }
    expect(() => openApiDocument([UndocumentedController], 'test')).toThrow('GET /api/undocumented declares no answer');
  });
});
