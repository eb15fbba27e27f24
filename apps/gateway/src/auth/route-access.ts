import { RequestMethod, type Type } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import type { UserRole } from '@spark/contracts';
import { IS_PUBLIC, REQUIRED_ROLES } from './auth.decorators';

/** Who may call a route, as its decorators say: anyone, any signed-in user, or only some roles. */
export type RouteAccess = 'public' | 'signed-in' | readonly UserRole[];

export interface RouteDecision {
  /** e.g. `POST /api/coach/leads/:leadId/approve` */
  route: string;
  access: RouteAccess;
}

const joinPath = (...parts: (string | undefined)[]) =>
  `/${parts
    .flatMap((part) => (part ?? '').split('/'))
    .filter(Boolean)
    .join('/')}`;

/** One route of a controller, as its decorators declare it. */
export interface DeclaredRoute extends RouteDecision {
  method: string;
  path: string;
  controller: Type;
  handlerName: string;
}

/**
 * Every route the controllers declare, with its access decision, read from their own Nest metadata (the same
 * metadata the global AccessTokenGuard reads), so the route × role matrix and the API document cannot drift from
 * what the gateway does.
 */
export function declaredRoutes(controllers: readonly Type[]): DeclaredRoute[] {
  const routes: DeclaredRoute[] = [];
  for (const controller of controllers) {
    const base = Reflect.getMetadata(PATH_METADATA, controller) as string | undefined;
    const prototype = controller.prototype as Record<string, unknown>;
    for (const name of Object.getOwnPropertyNames(prototype)) {
      const handler = prototype[name];
      if (name === 'constructor' || typeof handler !== 'function') continue;
      const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
      const path = Reflect.getMetadata(PATH_METADATA, handler) as string | undefined;
      if (method === undefined || path === undefined) continue;
      const metadataOf = <T>(key: string) => (Reflect.getMetadata(key, handler) ?? Reflect.getMetadata(key, controller)) as T | undefined;
      const roles = metadataOf<UserRole[]>(REQUIRED_ROLES);
      const access: RouteAccess = metadataOf<boolean>(IS_PUBLIC) ? 'public' : roles ? [...roles] : 'signed-in';
      const fullPath = joinPath(base, path);
      routes.push({ route: `${RequestMethod[method]} ${fullPath}`, access, method: RequestMethod[method], path: fullPath, controller, handlerName: name });
    }
  }
  return routes.sort((a, b) => a.route.localeCompare(b.route));
}

/** Who may call each route: the route × role matrix's rows. */
export const routeDecisions = (controllers: readonly Type[]): RouteDecision[] => declaredRoutes(controllers).map(({ route, access }) => ({ route, access }));
