import { createParamDecorator, type ExecutionContext, SetMetadata } from '@nestjs/common';
import type { Actor, UserRole } from '@spark/contracts';
import type { AuthenticatedRequest, AuthenticatedUser } from './access-token.guard';

export const IS_PUBLIC = 'spark:public';
export const REQUIRED_ROLES = 'spark:roles';

/** Lets a route (or a whole controller) through without a session; every other route needs one. */
export const Public = () => SetMetadata(IS_PUBLIC, true);

/** Only these roles may call the route; any other signed-in user gets 403. */
export const Roles = (...roles: [UserRole, ...UserRole[]]) => SetMetadata(REQUIRED_ROLES, roles);

/** The signed-in user the guard verified; only on routes that are not @Public(). */
export const CurrentUser = createParamDecorator(
  (_data: unknown, context: ExecutionContext): AuthenticatedUser => context.switchToHttp().getRequest<AuthenticatedRequest>().user,
);

/** The signed-in user as the `actor` a service request carries: who acts, and in which role. */
export const CurrentActor = createParamDecorator((_data: unknown, context: ExecutionContext): Actor => {
  const { id, role } = context.switchToHttp().getRequest<AuthenticatedRequest>().user;
  return { id, role };
});
