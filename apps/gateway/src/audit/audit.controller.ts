import { Controller, Get, Query } from '@nestjs/common';
import { listAuditEventsRequestSchema, type PayloadOf } from '@spark/contracts';
import { ServiceBus } from '@spark/messaging';
import { Roles } from '../auth/auth.decorators';
import { ZodPipe } from '../http/zod-body.pipe';
import { Responds } from '../docs/responds.decorator';

/** The dashboard's Audit Log tab: admins only. */
@Roles('admin')
@Controller('api/admin/audit')
export class AuditController {
  constructor(private readonly bus: ServiceBus) {}

  /** Newest first, keyset-paginated, filtered by action and by actor (e-mail or user id). */
  @Responds('auth.list-audit-events')
  @Get()
  list(@Query(new ZodPipe(listAuditEventsRequestSchema)) query: PayloadOf<'auth.list-audit-events'>) {
    return this.bus.request('auth.list-audit-events', query);
  }
}
