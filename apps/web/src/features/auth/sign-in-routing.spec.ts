import type { AuthUser, UserRole } from '@spark/contracts';
import { destinationAfterSignIn, destinationForSignedInUser } from './sign-in-routing';

const userWithRole = (role: UserRole): AuthUser => ({
  id: '5d9f6c52-3c55-4a43-8a8e-0d5f3f2b8a11',
  email: 'ada@example.com',
  created_at: '2026-01-01T00:00:00.000Z',
  user_metadata: { full_name: null, role, onboarding_completed_at: null, transformation_goal: null, assigned_coach_id: null },
});

const client = { user: userWithRole('client'), onboardingComplete: false };

describe('destinationAfterSignIn', () => {
  it('sends a coach or an admin to the dashboard whatever else is true', () => {
    for (const role of ['coach', 'admin'] as const) {
      expect(destinationAfterSignIn({ user: userWithRole(role), onboardingComplete: true }, 'ditl-welcome').path).toBe('/coach');
    }
  });

  it('sends an onboarded client to the app before looking at next', () => {
    expect(destinationAfterSignIn({ ...client, onboardingComplete: true }, 'ditl-welcome').path).toBe('/app');
  });

  it('sends next=ditl-welcome to onboarding first', () => {
    expect(destinationAfterSignIn(client, 'ditl-welcome')).toEqual({
      path: '/onboarding',
      welcome: 'Welcome! Redirecting to your onboarding...',
    });
  });

  it('follows any other relative next', () => {
    expect(destinationAfterSignIn(client, 'goal')).toEqual({ path: '/goal', welcome: 'Welcome! Redirecting you now...' });
  });

  it('falls back to onboarding without next, and ignores a next that points elsewhere', () => {
    expect(destinationAfterSignIn(client, null).path).toBe('/onboarding');
    expect(destinationAfterSignIn(client, '//evil.example/x').path).toBe('/onboarding');
  });
});

describe('destinationForSignedInUser', () => {
  it('continues a coach to /coach, an onboarded client to /app and a new client to /onboarding', () => {
    expect(destinationForSignedInUser({ user: userWithRole('admin'), onboardingComplete: false })).toBe('/coach');
    expect(destinationForSignedInUser({ ...client, onboardingComplete: true })).toBe('/app');
    expect(destinationForSignedInUser(client)).toBe('/onboarding');
  });
});
