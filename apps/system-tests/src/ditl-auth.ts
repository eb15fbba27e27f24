import { insertUser } from '@spark/testing';
import { JwtService } from '@nestjs/jwt';
import { ACCESS_TOKEN_AUDIENCE, ACCESS_TOKEN_ISSUER, generateDitlResponseSchema, type OnboardingAnswersInput, type UserRole } from '@spark/contracts';
import type { Client } from 'pg';

export const TEST_JWT_SECRET = 'system-test-jwt-secret-0123456789';

/** A user in the auth schema and an access token for it, signed as the auth-service signs them. */
export async function createSignedInUser(db: Client, email: string, role: UserRole = 'client') {
  return signedInAs(await insertUser(db, { email, role }), email, role);
}

/** An access token for a user already in the auth schema (one a coach's invitation created, say). */
export async function signedInAs(id: string, email: string, role: UserRole = 'client') {
  const token = await new JwtService({ secret: TEST_JWT_SECRET }).signAsync(
    { sub: id, email, role },
    { issuer: ACCESS_TOKEN_ISSUER, audience: ACCESS_TOKEN_AUDIENCE, expiresIn: 900, algorithm: 'HS256' },
  );
  return { id, email, token };
}

/** A client's request for a Day in the Life from their answers, as onboarding sends it; answers the generation's id. */
export async function requestGeneration(baseUrl: string, token: string, answers: OnboardingAnswersInput): Promise<string> {
  const response = await fetch(`${baseUrl}/api/ditl/generations`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ onboardingData: answers }),
  });
  if (response.status !== 202) throw new Error(`the DITL request answered ${response.status}: ${await response.text()}`);
  return generateDitlResponseSchema.parse(await response.json()).generationId;
}
