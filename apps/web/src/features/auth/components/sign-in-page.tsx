import { useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { usePageMeta } from '../../../lib/use-page-meta';
import { Card } from '../../../ui/card';
import { IconTile } from '../../../ui/icon';
import { SparkMark } from '../../../ui/layout/logo';
import { SessionLoading } from '../../session/components/session-loading';
import { useSession } from '../../session/use-session';
import { AuthLayout } from './auth-layout';
import { CodeSignInForm } from './code-sign-in-form';
import { MagicLinkForm } from './magic-link-form';
import { ProductChoice } from './product-choice';
import { parseProduct, signInCopy, type SignInProduct } from './sign-in-copy';
import { SignedInCard } from './signed-in-card';

function ProductLogo({ product }: { product: SignInProduct | null }) {
  if (product === 'coach') return <IconTile name="users" tone="ink" />;
  return <SparkMark className="size-12" />;
}

const textLinkClasses = 'font-semibold text-ink-700 underline-offset-4 hover:underline focus-visible:outline-3 focus-visible:outline-spark-500';

export default function SignInPage() {
  usePageMeta({ title: 'Sign in', description: 'Sign in to Spark with a secure magic link.', path: '/signin' });
  const [searchParams] = useSearchParams();
  const product = parseProduct(searchParams.get('product'));
  const { status, user, signOut } = useSession();
  const [usingCode, setUsingCode] = useState(false);
  const { heading, blurb } = signInCopy(product);

  return (
    <AuthLayout>
      {status === 'loading' && <SessionLoading />}
      {status === 'signed-in' && user && <SignedInCard user={user} onSignOut={signOut} />}
      {status === 'signed-out' && (
        <Card className="p-6 sm:p-8">
          <div className="flex flex-col items-center text-center">
            <ProductLogo product={product} />
            <h1 className="mt-4 text-2xl font-bold tracking-tight text-ink-950 sm:text-3xl">{heading}</h1>
            <p className="mt-2 text-slate-600">{blurb}</p>
          </div>
          <div className="mt-6">
            <ProductChoice selected={product} />
          </div>
          <div className="mt-6">{usingCode ? <CodeSignInForm /> : <MagicLinkForm product={product} />}</div>
          <button type="button" onClick={() => setUsingCode(!usingCode)} className={`mt-4 block w-full text-center text-sm ${textLinkClasses}`}>
            {usingCode ? 'Use a magic link instead' : 'Have a code? Use a code instead'}
          </button>
          <p className="mt-6 border-t border-slate-200 pt-6 text-center text-sm text-slate-600">
            New to Spark?{' '}
            <Link to="/interest" className={textLinkClasses}>
              Get started here
            </Link>
          </p>
        </Card>
      )}
    </AuthLayout>
  );
}
