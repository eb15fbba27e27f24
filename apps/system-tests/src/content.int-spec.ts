import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { JwtService } from '@nestjs/jwt';
import {
  ACCESS_TOKEN_AUDIENCE,
  ACCESS_TOKEN_ISSUER,
  errorBodySchema,
  logPostPageSchema,
  publishPostResponseSchema,
  logPostSchema,
  type UserRole,
  uploadedLogImageSchema,
} from '@spark/contracts';
import sharp from 'sharp';
import { type InProcessStack, startInProcessStack } from './in-process-stack';

const JWT_SECRET = 'system-test-jwt-secret-content-0001';
const adminId = randomUUID();
const tokenFor = (role: UserRole, sub = randomUUID()) =>
  new JwtService({ secret: JWT_SECRET }).sign(
    { sub, email: `${role}@spark.test`, role },
    { issuer: ACCESS_TOKEN_ISSUER, audience: ACCESS_TOKEN_AUDIENCE, expiresIn: 600 },
  );
// The smallest valid PNG: a 1x1 transparent pixel.
const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

describe("the Developer's Log through the gateway", () => {
  let stack: InProcessStack;
  const admin = tokenFor('admin', adminId);
  const coach = tokenFor('coach');

  beforeAll(async () => {
    stack = await startInProcessStack({ redisDb: 6, env: { JWT_SECRET }, withNotifier: false });
  });
  afterAll(() => stack.stop());

  const call = (method: string, path: string, body?: unknown, token?: string) =>
    fetch(`${stack.baseUrl}${path}`, {
      method,
      redirect: 'manual',
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const uploadImage = async (name: string, bytes: Buffer, token = admin) => {
    const form = new FormData();
    form.append('file', new Blob([bytes], { type: 'image/png' }), name);
    return fetch(`${stack.baseUrl}/api/log/images`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } });
  };

  it('publishes a post with its image, newest first on the public list, the image served only once published', async () => {
    const uploaded = await uploadImage('chart.png', png);
    expect(uploaded.status).toBe(201);
    const image = uploadedLogImageSchema.parse(await uploaded.json());
    expect(image.key).toMatch(new RegExp(`^${adminId}/\\d+-chart\\.png$`));
    expect((await call('GET', `/api/log/images/${image.key}`)).status).toBe(404);

    await call('POST', '/api/log/posts', { markdown: '# Older post\nfirst' }, admin);
    const published = await call(
      'POST',
      '/api/log/posts',
      { markdown: '# Week 1\nProgress ![[chart.png]]', images: [{ name: 'chart.png', key: image.key }] },
      admin,
    );
    expect(published.status).toBe(201);
    expect(await published.json()).toEqual({ success: true, postUrl: '/log/week-1', slug: 'week-1' });

    const list = logPostPageSchema.parse(await (await call('GET', '/api/log/posts')).json());
    expect(list.items.map((post) => post.title)).toEqual(['Week 1', 'Older post']);
    const post = logPostSchema.parse(await (await call('GET', '/api/log/posts/week-1')).json());
    expect(post.markdown).toBe(`# Week 1\nProgress ![chart.png](</api/log/images/${image.key}>)`);
    const redirect = await call('GET', `/api/log/images/${image.key}`);
    expect(redirect.status).toBe(302);
    // The image is stored re-encoded (without its metadata): the same picture, not the same bytes.
    const served = await sharp(Buffer.from(await (await fetch(redirect.headers.get('location') ?? '')).arrayBuffer())).metadata();
    expect({ format: served.format, width: served.width, height: served.height }).toEqual({ format: 'png', width: 1, height: 1 });
  });

  it('titles a post without a heading "Untitled Post" and keeps slugs unique', async () => {
    const first = publishPostResponseSchema.parse(await (await call('POST', '/api/log/posts', { markdown: 'just words' }, admin)).json());
    const second = publishPostResponseSchema.parse(await (await call('POST', '/api/log/posts', { markdown: 'more words' }, admin)).json());
    expect([first.slug, second.slug]).toEqual(['untitled-post', 'untitled-post-2']);
  });

  it("publishes a post once under the publisher's id, pressed again or twice at once; other text under that id is 409", async () => {
    const postId = randomUUID();
    const post = { markdown: `# Pressed twice ${postId.slice(0, 8)}\n\nOnce.`, postId };
    const answers = await Promise.all([call('POST', '/api/log/posts', post, admin), call('POST', '/api/log/posts', post, admin)]);
    const again = await call('POST', '/api/log/posts', post, admin);
    const slugs = [];
    for (const answer of [...answers, again]) {
      expect(answer.status).toBe(201);
      slugs.push(publishPostResponseSchema.parse(await answer.json()).slug);
    }
    expect(new Set(slugs)).toEqual(new Set([`pressed-twice-${postId.slice(0, 8)}`]));

    const changed = await call('POST', '/api/log/posts', { ...post, markdown: `${post.markdown} And more.` }, admin);
    expect(changed.status).toBe(409);
    expect(errorBodySchema.parse(await changed.json()).message).toMatch(/already published with other content/);
    const listed = logPostPageSchema.parse(await (await call('GET', '/api/log/posts?limit=100')).json());
    expect(listed.items.filter((item) => item.title.startsWith('Pressed twice'))).toHaveLength(1);
  });

  it('publishes a post as long as a post may be, 200 000 characters', async () => {
    const paragraph = 'Twelve clients kept their streaks through the holidays, and the morning check-ins did most of the work. ';
    const markdown = `# The long read\n${paragraph.repeat(Math.floor((200_000 - 16) / paragraph.length))}`;
    expect(markdown.length).toBeGreaterThan(199_000);
    const published = await call('POST', '/api/log/posts', { markdown }, admin);
    expect(published.status).toBe(201);
    const { slug } = publishPostResponseSchema.parse(await published.json());
    const post = logPostSchema.parse(await (await call('GET', `/api/log/posts/${slug}`)).json());
    expect(post.markdown).toBe(markdown);
    expect(post.excerpt).toMatch(/^Twelve clients kept their streaks .*\.\.\.$/);
    expect((await call('POST', '/api/log/posts', { markdown: `${markdown}${paragraph}` }, admin)).status).toBe(400);
    expect((await call('POST', '/api/log/posts', { markdown: 'x'.repeat(700_000) }, admin)).status).toBe(413);
  });

  it('reads no long post body from a caller who may not publish: the 401 or 403 comes before the body', async () => {
    const refusals: [string | undefined, number][] = [
      [undefined, 401],
      ['Bearer not.a.token', 401],
      [`Bearer ${coach}`, 403],
    ];
    for (const [authorization, status] of refusals) {
      const answer = await new Promise<number>((resolve, reject) => {
        const request = httpRequest(`${stack.baseUrl}/api/log/posts`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'content-length': '600000', ...(authorization ? { authorization } : {}) },
        });
        request.on('response', (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
          request.destroy();
        });
        request.on('error', reject);
        // The first part of the body only; the rest would never come.
        request.write(`{"markdown":"${'x'.repeat(1_000)}`);
      });
      expect([authorization, answer]).toEqual([authorization, status]);
    }
  });

  // Anyone may read the log, and each list or read takes every post it shows apart for its excerpt: a post written to
  // make that slow would have made the log, and the service behind it, slow for everyone.
  it('publishes, lists and reads at once a post written to be slow to take apart', async () => {
    const markdown = [
      `# Brackets${' #'.repeat(16_000)}x`,
      '<'.repeat(40_000),
      '!['.repeat(16_000),
      '![['.repeat(10_000),
      '['.repeat(40_000),
      '[a]('.repeat(6_000),
    ].join('\n');
    expect(markdown.length).toBeLessThanOrEqual(200_000);
    const published = await call('POST', '/api/log/posts', { markdown }, admin);
    expect(published.status).toBe(201);
    const { slug } = publishPostResponseSchema.parse(await published.json());
    const list = await call('GET', '/api/log/posts');
    expect(list.status).toBe(200);
    expect(logPostPageSchema.parse(await list.json()).items.find((post) => post.slug === slug)?.title).toMatch(/^Brackets # # #/);
    const read = await call('GET', `/api/log/posts/${slug}`);
    expect(read.status).toBe(200);
    expect(logPostSchema.parse(await read.json()).excerpt.length).toBeLessThanOrEqual(200);
  });

  it('rejects empty content, missing images and files that are not images', async () => {
    const empty = await call('POST', '/api/log/posts', { markdown: '  \n ' }, admin);
    expect(empty.status).toBe(400);
    expect(errorBodySchema.parse(await empty.json()).fieldErrors?.markdown).toEqual(['No content']);
    const missing = await call('POST', '/api/log/posts', { markdown: '# A\n![[absent.png]]' }, admin);
    expect(missing.status).toBe(400);
    expect(errorBodySchema.parse(await missing.json()).message).toBe('Missing images: absent.png');
    expect((await uploadImage('evil.png', Buffer.from('<script>alert(1)</script>'))).status).toBe(415);
    expect((await uploadImage('notes.txt', png)).status).toBe(415);
  });

  it('gives a coach 403 and a visitor 401 on the publishing routes', async () => {
    expect((await uploadImage('chart.png', png, coach)).status).toBe(403);
    expect((await call('POST', '/api/log/posts', { markdown: '# x' }, coach)).status).toBe(403);
    expect((await call('POST', '/api/log/posts', { markdown: '# x' })).status).toBe(401);
    expect((await call('GET', '/api/log/posts/no-such-post')).status).toBe(404);
  });
});
