import { insertUser } from '@spark/testing';
import { JwtService } from '@nestjs/jwt';
import { ACCESS_TOKEN_AUDIENCE, ACCESS_TOKEN_ISSUER, type UserRole } from '@spark/contracts';
import type { Client } from 'pg';

export const TEST_JWT_SECRET = 'system-test-jwt-secret-0123456789';

/** A user in the auth schema and an access token for it, signed as the auth-service signs them. */
export async function createSignedInUser(db: Client, email: string, role: UserRole = 'client') {
  const id = await insertUser(db, { email, role });
  const token = await new JwtService({ secret: TEST_JWT_SECRET }).signAsync(
    { sub: id, email, role },
    { issuer: ACCESS_TOKEN_ISSUER, audience: ACCESS_TOKEN_AUDIENCE, expiresIn: 900, algorithm: 'HS256' },
  );
  return { id, email, token };
}
