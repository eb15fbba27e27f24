import { sessionSchema } from '@spark/contracts';
import { signInTestFile } from './sign-in-client';
import { authService } from '../../auth-service/src/service';

const JWT_SECRET = 'system-test-jwt-secret-refresh-cookie';

/**
 * A site on another subdomain of the product's domain (a marketing site, a hijacked CNAME) can set cookies for the
 * whole domain. A refresh cookie of its own, planted under the product's cookie name, must not sign a visitor into the
 * planter's account, where the visitor's photos and answers would then land.
 */
describe('the refresh cookie of an https site', () => {
  const { post, createUser, signIn } = signInTestFile({ services: [authService], env: { JWT_SECRET, PUBLIC_URL: 'https://spark.example.com' } }, '198.18.10');

  it('is set host-only for the whole site, and a cookie planted under the old name for the domain is not read', async () => {
    const victimId = await createUser('planted-on@example.com');
    await createUser('planter@example.com');
    const victim = await signIn('planted-on@example.com');
    const planter = await signIn('planter@example.com');

    // The browser sends the planted cookie (its path is longer) before the product's own.
    const planted = `spark_refresh=${planter.cookie.split('=')[1]}`;
    const answer = await post('/api/auth/refresh', {}, { cookie: `${planted}; ${victim.cookie}` });
    expect(answer.status).toBe(200);
    expect(sessionSchema.parse(await answer.json()).user.id).toBe(victimId);

    const plantedAlone = await post('/api/auth/refresh', {}, { cookie: planted });
    // As for a visitor without a session: nobody is signed in.
    expect([plantedAlone.status, await plantedAlone.json()]).toEqual([200, null]);
    expect(victim.cookie).toMatch(/^__Host-spark_refresh=/);
  });
});
