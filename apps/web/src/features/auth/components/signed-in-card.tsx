import type { AuthUser } from '@spark/contracts';
import { useState } from 'react';
import { Button, ButtonLink } from '../../../ui/button';
import { Card } from '../../../ui/card';
import { signedInContext } from '../remember-sign-in';
import { destinationForSignedInUser } from '../sign-in-routing';

interface SignedInCardProps {
  user: AuthUser;
  onSignOut: () => Promise<void>;
}

/** /signin for someone already signed in: continue, or sign out to switch accounts. */
export function SignedInCard({ user, onSignOut }: SignedInCardProps) {
  const [signingOut, setSigningOut] = useState(false);
  const signOut = () => {
    setSigningOut(true);
    void onSignOut();
  };
  return (
    <Card className="p-6 text-center sm:p-8">
      <h1 className="text-2xl font-bold tracking-tight text-ink-950">Welcome back!</h1>
      <p className="mt-4 text-sm text-slate-600">Signed in as</p>
      <p className="mt-1 font-semibold break-all text-ink-950">{user.email}</p>
      <ButtonLink to={destinationForSignedInUser(signedInContext(user))} size="lg" className="mt-8 w-full">
        Continue
      </ButtonLink>
      <Button variant="ghost" className="mt-3 w-full" onClick={signOut} disabled={signingOut}>
        {signingOut ? 'Signing out...' : 'Sign out and use different account'}
      </Button>
    </Card>
  );
}
