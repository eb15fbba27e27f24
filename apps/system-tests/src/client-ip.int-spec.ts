import { startGateway } from '../../gateway/src/main';
import { authService } from '../../auth-service/src/service';
import { type InProcessStack, startInProcessStack } from './in-process-stack';

// What the gateway allows per address and 10 minutes (apps/gateway/src/auth/auth.controller.ts).
const MAGIC_LINKS_PER_IP = 20;

describe('the client address the per-IP limits count', () => {
  let stack: InProcessStack;
  let behindProxy: Awaited<ReturnType<typeof startGateway>>;

  beforeAll(async () => {
    // TRUST_PROXY unset: the default, no proxy believed.
    stack = await startInProcessStack({ services: [authService], withNotifier: false });
    // A second gateway on the same bus, configured as if this test's loopback socket were the ingress.
    behindProxy = await startGateway({ ...stack.env, TRUST_PROXY: '127.0.0.1' });
  });
  afterAll(async () => {
    await behindProxy?.stop();
    await stack?.stop();
  });

  const requestLink = (baseUrl: string, forwardedFor: string, index: number) =>
    fetch(`${baseUrl}/api/auth/magic-link`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor },
      body: JSON.stringify({ email: `rotating-${index}-${Date.now()}@example.com` }),
    });
  const statuses = async (baseUrl: string, forwardedFor: (index: number) => string, count: number) => {
    const answers: number[] = [];
    for (let i = 0; i < count; i++) answers.push((await requestLink(baseUrl, forwardedFor(i), i)).status);
    return answers;
  };
  const limitKeys = () => stack.redis.keys(`${stack.env.BUS_PREFIX}:gateway:rate-limit:magic-link:*`);

  it('ignores X-Forwarded-For when no proxy is trusted: 30 requests from loopback with a rotating header get 429 from the 21st on', async () => {
    const answers = await statuses(stack.baseUrl, (i) => `198.51.100.${i + 1}`, 30);
    expect(answers.slice(0, MAGIC_LINKS_PER_IP)).toEqual(Array(MAGIC_LINKS_PER_IP).fill(202));
    expect(answers.slice(MAGIC_LINKS_PER_IP)).toEqual(Array(30 - MAGIC_LINKS_PER_IP).fill(429));
    expect((await limitKeys()).map((key) => key.split(':').pop())).toContain('127.0.0.1');
  });

  it('with TRUST_PROXY=127.0.0.1 counts the address the trusted proxy appended, not the leftmost one the client wrote', async () => {
    const answers = await statuses(behindProxy.url, (i) => `203.0.113.${i + 1}, 192.0.2.44`, MAGIC_LINKS_PER_IP + 1);
    expect(answers.slice(0, MAGIC_LINKS_PER_IP)).toEqual(Array(MAGIC_LINKS_PER_IP).fill(202));
    expect(answers[MAGIC_LINKS_PER_IP]).toBe(429);
    const counted = (await limitKeys()).map((key) => key.split(':').pop());
    expect(counted).toContain('192.0.2.44');
    expect(counted.filter((ip) => ip?.startsWith('203.0.113.'))).toEqual([]);
    // Another client behind the same proxy has a budget of its own.
    expect((await requestLink(behindProxy.url, '203.0.113.1, 192.0.2.45', 99)).status).toBe(202);
  });

  it('counts an IPv6 client by its /64, which one subscriber holds whole: rotating the rest of the address does not reset the limit', async () => {
    const answers = await statuses(behindProxy.url, (i) => `2001:db8:aa:bb:${(i + 1).toString(16)}::${i + 7}`, MAGIC_LINKS_PER_IP + 1);
    expect(answers.slice(0, MAGIC_LINKS_PER_IP)).toEqual(Array(MAGIC_LINKS_PER_IP).fill(202));
    expect(answers[MAGIC_LINKS_PER_IP]).toBe(429);
    expect(await limitKeys()).toContain(`${stack.env.BUS_PREFIX}:gateway:rate-limit:magic-link:2001:db8:aa:bb::/64`);
    // The neighbouring /64 is another subscriber, with a budget of its own.
    expect((await requestLink(behindProxy.url, '2001:db8:aa:bc::1', 98)).status).toBe(202);
  });

  it('counts an IPv4 client written as an IPv4-mapped IPv6 address as that IPv4 address', async () => {
    const answers = await statuses(behindProxy.url, (i) => (i % 2 === 0 ? '192.0.2.60' : '::ffff:192.0.2.60'), MAGIC_LINKS_PER_IP + 1);
    expect(answers.slice(0, MAGIC_LINKS_PER_IP)).toEqual(Array(MAGIC_LINKS_PER_IP).fill(202));
    expect(answers[MAGIC_LINKS_PER_IP]).toBe(429);
    expect(await limitKeys()).toContain(`${stack.env.BUS_PREFIX}:gateway:rate-limit:magic-link:192.0.2.60`);
  });
});
