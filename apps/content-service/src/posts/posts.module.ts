import { type DynamicModule, Module } from '@nestjs/common';
import type { ServiceInfrastructure } from '@spark/service-runtime';
import { PostsHandler } from './posts.handler';
import { PostsRepository } from './posts.repository';
import { PostsService } from './posts.service';

@Module({})
export class PostsModule {
  static register({ dataSource }: ServiceInfrastructure): DynamicModule {
    return {
      module: PostsModule,
      controllers: [PostsHandler],
      providers: [{ provide: PostsService, useValue: new PostsService(new PostsRepository(dataSource)) }],
    };
  }
}
