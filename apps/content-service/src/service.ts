import type { ServiceDefinition } from '@spark/service-runtime';
import { contentMigrations } from './migrations';
import { PostsModule } from './posts/posts.module';

export const contentService: ServiceDefinition = {
  name: 'content',
  migrations: contentMigrations,
  module: (infrastructure) => PostsModule.register(infrastructure),
};
