import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import type { PayloadOf } from '@spark/contracts';
import { AccountDeletionService } from './account-deletion.service';

/** Account deletion: the client asks and confirms (through the gateway), the erasing services report their parts. */
@Controller()
export class AccountDeletionHandler {
  constructor(private readonly deletions: AccountDeletionService) {}

  @MessagePattern('auth.request-account-deletion')
  request(@Payload() request: PayloadOf<'auth.request-account-deletion'>) {
    return this.deletions.request(request);
  }

  @MessagePattern('auth.confirm-account-deletion')
  confirm(@Payload() request: PayloadOf<'auth.confirm-account-deletion'>) {
    return this.deletions.confirm(request);
  }

  @MessagePattern('auth.deletion-subject')
  subject(@Payload() request: PayloadOf<'auth.deletion-subject'>) {
    return this.deletions.subject(request);
  }

  @MessagePattern('auth.deletion-part-done')
  partDone(@Payload() request: PayloadOf<'auth.deletion-part-done'>) {
    return this.deletions.partDone(request);
  }

  @MessagePattern('auth.list-account-deletions')
  list(@Payload() request: PayloadOf<'auth.list-account-deletions'>) {
    return this.deletions.list(request);
  }
}
