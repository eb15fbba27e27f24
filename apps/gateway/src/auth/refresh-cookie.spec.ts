import type { FastifyReply, FastifyRequest } from 'fastify';
import { RefreshCookie } from './refresh-cookie';

const token = 'a'.repeat(43);
const requestWith = (cookie: string | undefined) => ({ headers: { cookie } }) as FastifyRequest;
const capture = () => {
  const headers: string[] = [];
  const reply = { header: (_name: string, value: string) => headers.push(value) } as unknown as FastifyReply;
  return { reply, headers };
};

describe('the refresh cookie', () => {
  it('reads spark_refresh among other cookies, and nothing from a malformed value', () => {
    const cookie = new RefreshCookie('http://localhost:8080');
    expect(cookie.read(requestWith(`theme=dark; spark_refresh=${token}; other=1`))).toBe(token);
    expect(cookie.read(requestWith(`not_spark_refresh=${token}`))).toBeUndefined();
    expect(cookie.read(requestWith('spark_refresh=short'))).toBeUndefined();
    expect(cookie.read(requestWith(undefined))).toBeUndefined();
  });

  it('is httpOnly, SameSite=Lax, scoped to /api/auth, and Secure only on https', () => {
    const { reply, headers } = capture();
    new RefreshCookie('http://localhost:8080').set(reply, token);
    new RefreshCookie('https://spark.example').set(reply, token);
    expect(headers[0]).toBe(`spark_refresh=${token}; Max-Age=2592000; Path=/api/auth; HttpOnly; SameSite=Lax`);
    expect(headers[1]).toMatch(/; Secure$/);
  });

  it('clears with an empty, already expired cookie on the same path', () => {
    const { reply, headers } = capture();
    new RefreshCookie('http://localhost:8080').clear(reply);
    expect(headers[0]).toMatch(/^spark_refresh=; Max-Age=0; .*Path=\/api\/auth/);
  });

  it('on https is __Host-spark_refresh for the whole site, Secure, and never reads a spark_refresh cookie another subdomain planted', () => {
    const { reply, headers } = capture();
    const cookie = new RefreshCookie('https://spark.example');
    cookie.set(reply, token);
    cookie.clear(reply);
    expect(headers[0]).toBe(`__Host-spark_refresh=${token}; Max-Age=2592000; Path=/; HttpOnly; SameSite=Lax; Secure`);
    expect(headers[1]).toMatch(/^__Host-spark_refresh=; Max-Age=0; .*Path=\/;.*; Secure$/);
    const planted = 'b'.repeat(43);
    expect(cookie.read(requestWith(`spark_refresh=${planted}; __Host-spark_refresh=${token}`))).toBe(token);
    expect(cookie.read(requestWith(`spark_refresh=${planted}`))).toBeUndefined();
    expect(cookie.isSent(requestWith(`spark_refresh=${planted}`))).toBe(false);
  });
});
