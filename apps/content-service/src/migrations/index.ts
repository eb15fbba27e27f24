import { CreateHandledRequests1764200000000, ServiceRole1764700000000 } from '@spark/persistence';
import { ConfirmOutboxJobs1764100000000, CreateOutbox1763800000000 } from '@spark/jobs';
import { CreatePosts1763800000070 } from './1763800000070-create-posts';
import { PostExcerpts1765000000070 } from './1765000000070-post-excerpts';

export const contentMigrations = [
  CreateOutbox1763800000000,
  CreatePosts1763800000070,
  ConfirmOutboxJobs1764100000000,
  CreateHandledRequests1764200000000,
  ServiceRole1764700000000,
  PostExcerpts1765000000070,
];
