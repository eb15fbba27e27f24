import { Body, Controller, Param, Patch } from '@nestjs/common';
import { type AuthUser, setRoleBodySchema, type SetRoleBody, uuidSchema } from '@spark/contracts';
import { ServiceBus } from '@spark/messaging';
import { Audited } from '../audit/audited.decorator';
import { ZodPipe } from '../http/zod-body.pipe';
import type { AuthenticatedUser } from './access-token.guard';
import { CurrentUser, Roles } from './auth.decorators';
import { Responds } from '../docs/responds.decorator';

/** The Team tab: admins manage who has which role. */
@Roles('admin')
@Controller('api/admin/users')
export class AdminUsersController {
  constructor(private readonly bus: ServiceBus) {}

  /**
   * Gives a user another role; every session of that user ends at once. 409 when the last admin
   * would step down.
   */
  @Responds('auth.set-role')
  @Patch(':userId/role')
  @Audited('user.role-change', { type: 'user', id: { param: 'userId' }, label: { answer: ['email'] }, details: ['role'] })
  setRole(
    @CurrentUser() admin: AuthenticatedUser,
    @Param('userId', new ZodPipe(uuidSchema)) userId: string,
    @Body(new ZodPipe(setRoleBodySchema)) body: SetRoleBody,
  ): Promise<AuthUser> {
    return this.bus.request('auth.set-role', { actorId: admin.id, userId, role: body.role });
  }
}
