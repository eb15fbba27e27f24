export type SignInProduct = 'spark' | 'coach';

export const parseProduct = (value: string | null): SignInProduct | null => (value === 'spark' || value === 'coach' ? value : null);

/** Heading and blurb of /signin per ?product= (docs/product.md §2). */
export function signInCopy(product: SignInProduct | null): { heading: string; blurb: string } {
  switch (product) {
    case 'spark':
      return { heading: 'Access The Spark', blurb: 'Capture your sparks, keep your streak and follow your evolution.' };
    case 'coach':
      return { heading: 'Access the Coach Dashboard', blurb: 'Review leads, see client trends and guide every transformation.' };
    case null:
      return { heading: 'Sign in to your account', blurb: 'No password needed: we e-mail you a secure, one-time sign-in link.' };
  }
}
