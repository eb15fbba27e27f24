import { randomUUID } from 'node:crypto';
import { openMigrated } from '@spark/persistence';
import { createTestDatabase, type TestDatabase } from '@spark/testing';
import type { DataSource } from 'typeorm';
import { contentMigrations } from '../migrations';
import { PostExcerpts1765000000070 } from '../migrations/1765000000070-post-excerpts';
import { PostsRepository } from './posts.repository';
import { PostsService } from './posts.service';

// Posts published before excerpts were stored keep an excerpt, worked out as publishing does.
describe('the migration that stores post excerpts (real PostgreSQL)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  const open = (migrations: typeof contentMigrations) => openMigrated({ url: database.url, schema: 'content', migrations });

  beforeAll(async () => {
    database = await createTestDatabase();
    const before = await open(contentMigrations.slice(0, contentMigrations.indexOf(PostExcerpts1765000000070)));
    await before.query(`INSERT INTO content.posts (id, slug, title, markdown, author_id) VALUES ($1, 'week-1', 'Week 1', $2, $3)`, [
      randomUUID(),
      '# Week 1\nMorning **check-ins** <script>x</script> carried [the streaks](https://spark.test/streaks).',
      randomUUID(),
    ]);
    await before.destroy();
    dataSource = await open(contentMigrations);
  });
  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  it('excerpts the posts published before, as publishing does', async () => {
    const posts = new PostsService(new PostsRepository(dataSource));
    const page = await posts.list({ limit: 10 });
    expect(page.items.map(({ slug, title, excerpt }) => ({ slug, title, excerpt }))).toEqual([
      { slug: 'week-1', title: 'Week 1', excerpt: 'Morning check-ins carried the streaks.' },
    ]);
  });
});
