import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import type { PayloadOf } from '@spark/contracts';
import { PostsService } from './posts.service';

@Controller()
export class PostsHandler {
  constructor(private readonly posts: PostsService) {}

  @MessagePattern('content.publish-post')
  publish(@Payload() request: PayloadOf<'content.publish-post'>) {
    return this.posts.publish(request);
  }

  @MessagePattern('content.list-posts')
  list(@Payload() request: PayloadOf<'content.list-posts'>) {
    return this.posts.list(request);
  }

  @MessagePattern('content.get-post')
  get(@Payload() request: PayloadOf<'content.get-post'>) {
    return this.posts.get(request);
  }

  @MessagePattern('content.check-image')
  checkImage(@Payload() request: PayloadOf<'content.check-image'>) {
    return this.posts.checkImage(request);
  }
}
