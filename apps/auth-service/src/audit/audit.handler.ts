import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import type { PayloadOf } from '@spark/contracts';
import { AuditService } from './audit.service';

/** The audit log's patterns: the gateway records every audited action, admins read them. */
@Controller()
export class AuditHandler {
  constructor(private readonly audit: AuditService) {}

  @MessagePattern('auth.record-audit-event')
  record(@Payload() event: PayloadOf<'auth.record-audit-event'>) {
    return this.audit.record(event);
  }

  @MessagePattern('auth.list-audit-events')
  list(@Payload() request: PayloadOf<'auth.list-audit-events'>) {
    return this.audit.list(request);
  }
}
