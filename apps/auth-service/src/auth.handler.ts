import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import type { PayloadOf } from '@spark/contracts';
import { SessionsService } from './sessions/sessions.service';
import { SignInService } from './sign-in/sign-in.service';
import { UsersService } from './users/users.service';

@Controller()
export class AuthHandler {
  constructor(
    private readonly signIn: SignInService,
    private readonly sessions: SessionsService,
    private readonly users: UsersService,
  ) {}

  @MessagePattern('auth.magic-link')
  requestMagicLink(@Payload() request: PayloadOf<'auth.magic-link'>) {
    return this.signIn.requestMagicLink(request);
  }

  @MessagePattern('auth.redeem')
  redeem(@Payload() request: PayloadOf<'auth.redeem'>) {
    return this.signIn.redeem(request);
  }

  @MessagePattern('auth.link-info')
  linkInfo(@Payload() request: PayloadOf<'auth.link-info'>) {
    return this.signIn.linkInfo(request);
  }

  @MessagePattern('auth.invite')
  invite(@Payload() request: PayloadOf<'auth.invite'>) {
    return this.signIn.invite(request);
  }

  @MessagePattern('auth.refresh')
  refresh(@Payload() request: PayloadOf<'auth.refresh'>) {
    return this.sessions.refresh(request);
  }

  @MessagePattern('auth.sign-out-everywhere')
  signOutEverywhere(@Payload() request: PayloadOf<'auth.sign-out-everywhere'>) {
    return this.sessions.signOutEverywhere(request);
  }

  @MessagePattern('auth.sign-out')
  signOut(@Payload() request: PayloadOf<'auth.sign-out'>) {
    return this.sessions.signOut(request);
  }

  @MessagePattern('auth.get-user')
  getUser(@Payload() request: PayloadOf<'auth.get-user'>) {
    return this.users.get(request);
  }

  @MessagePattern('auth.client-recipient')
  clientRecipient(@Payload() request: PayloadOf<'auth.client-recipient'>) {
    return this.users.clientRecipient(request);
  }

  @MessagePattern('auth.export-account')
  exportAccount(@Payload() request: PayloadOf<'auth.export-account'>) {
    return this.users.exportAccount(request);
  }

  @MessagePattern('auth.update-user')
  updateUser(@Payload() request: PayloadOf<'auth.update-user'>) {
    return this.users.update(request);
  }

  @MessagePattern('auth.set-role')
  setRole(@Payload() request: PayloadOf<'auth.set-role'>) {
    return this.users.setRole(request);
  }

  @MessagePattern('auth.list-users')
  listUsers(@Payload() request: PayloadOf<'auth.list-users'>) {
    return this.users.list(request);
  }
}
