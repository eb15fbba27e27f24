import { INTERCEPTORS_METADATA } from '@nestjs/common/constants';
import { FASTIFY_ROUTE_CONFIG_METADATA } from '@nestjs/platform-fastify/constants';
import type { FastifyContextConfig } from 'fastify';
import { AuditInterceptor } from '../audit/audit.interceptor';
import { declaredRoutes } from '../auth/route-access';
import { gatewayControllers } from '../gateway.module';
import { UploadSlotsInterceptor } from './upload-slots';

describe('interceptors on the gateway routes', () => {
  const routes = declaredRoutes(gatewayControllers).map((route) => {
    const handler = (route.controller.prototype as Record<string, object>)[route.handlerName];
    return {
      route: route.route,
      config: (Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, handler) ?? {}) as FastifyContextConfig,
      interceptors: (Reflect.getMetadata(INTERCEPTORS_METADATA, handler) ?? []) as unknown[],
    };
  });

  it('run on every audited route and every upload route, and on no other', () => {
    for (const { route, config, interceptors } of routes) {
      const expected = [...(config.auditedRoute ? [AuditInterceptor] : []), ...(config.uploadRoute ? [UploadSlotsInterceptor] : [])];
      expect({ route, interceptors: new Set(interceptors) }).toEqual({ route, interceptors: new Set(expected) });
    }
  });

  it('are declared where the product needs them', () => {
    const interceptorsOf = (name: string) => routes.find(({ route }) => route === name)?.interceptors;
    expect(interceptorsOf('POST /api/leads')).toEqual([]);
    expect(interceptorsOf('POST /api/coach/leads/:leadId/approve')).toEqual([AuditInterceptor]);
    expect(interceptorsOf('PUT /api/investors/deck/:file')).toContain(UploadSlotsInterceptor);
  });
});
