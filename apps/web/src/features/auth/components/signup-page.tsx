import { Link, Navigate, useLocation } from 'react-router-dom';
import { readStored, storageKeys } from '../../../lib/storage-keys';
import { usePageMeta } from '../../../lib/use-page-meta';
import { ButtonLink } from '../../../ui/button';
import { Card } from '../../../ui/card';
import { Icon } from '../../../ui/icon';
import { SessionLoading } from '../../session/components/session-loading';
import { useSession } from '../../session/use-session';
import { AuthLayout } from './auth-layout';

const approvalSteps: ReadonlyArray<{ title: string; detail: string }> = [
  { title: 'Express your interest', detail: 'Tell us your e-mail and whether you want to transform or to coach.' },
  { title: 'Coach review', detail: 'A coach reviews every request within 24-48 hours.' },
  { title: 'Receive your magic link', detail: 'Once approved, you get a one-time sign-in link by e-mail, valid for 1 hour.' },
  { title: 'Begin onboarding', detail: 'Four short steps, about 4 minutes, and your evolution starts.' },
];

// Links in the URL-fragment style (#token=…, #access_token=… or #type=magiclink) belong to /magic-link-auth.
const carriesMagicLink = (hash: string) => {
  const fragment = new URLSearchParams(hash.replace(/^#/, ''));
  return fragment.has('token') || fragment.has('access_token') || /magic/i.test(fragment.get('type') ?? '');
};

function ApprovalRequired() {
  return (
    <Card className="p-6 sm:p-8">
      <h1 className="text-2xl font-bold tracking-tight text-ink-950 sm:text-3xl">Coach Approval Required</h1>
      <p className="mt-2 text-slate-600">Spark is by invitation: a coach approves every new member. Here is how it works.</p>
      <ol className="mt-6 space-y-4">
        {approvalSteps.map((step, index) => (
          <li key={step.title} className="flex gap-4">
            <span className="flex size-8 shrink-0 items-center justify-center rounded-full bg-spark-100 text-sm font-bold text-spark-800">{index + 1}</span>
            <span>
              <span className="block font-semibold text-ink-950">{step.title}</span>
              <span className="block text-sm text-slate-600">{step.detail}</span>
            </span>
          </li>
        ))}
      </ol>
      <ButtonLink to="/interest" size="lg" className="mt-8 w-full">
        Express Interest
      </ButtonLink>
      <p className="mt-4 text-center text-sm text-slate-600">
        Already approved?{' '}
        <Link to="/signin" className="font-semibold text-ink-700 underline-offset-4 hover:underline">
          Sign in
        </Link>
      </p>
    </Card>
  );
}

function WelcomeBack({ email }: { email: string }) {
  const tips = ['Check your spam or promotions folder if it is not in your inbox.', 'The link works once.', 'It expires in 1 hour.'];
  return (
    <Card className="p-6 sm:p-8">
      <span className="flex size-12 items-center justify-center rounded-xl bg-ink-50 text-ink-700">
        <Icon name="mail" />
      </span>
      <h1 className="mt-4 text-2xl font-bold tracking-tight text-ink-950 sm:text-3xl">Welcome Back</h1>
      <p className="mt-2 text-slate-600">
        You're approved. Check <span className="font-semibold break-all text-ink-950">{email}</span> for your magic link.
      </p>
      <ul className="mt-6 space-y-3">
        {tips.map((tip) => (
          <li key={tip} className="flex gap-3 text-sm text-slate-700">
            <Icon name="check" className="size-5 text-emerald-600" />
            {tip}
          </li>
        ))}
      </ul>
      <ButtonLink to="/signin" variant="secondary" size="lg" className="mt-8 w-full">
        Need a new link? Sign in
      </ButtonLink>
    </Card>
  );
}

export default function SignupPage() {
  usePageMeta({ title: 'Coach approval', description: 'Spark is by coach approval. Here is how to get your invitation.', path: '/signup' });
  const location = useLocation();
  const { status } = useSession();
  if (carriesMagicLink(location.hash)) return <Navigate to={`/magic-link-auth${location.search}${location.hash}`} replace />;
  if (status === 'signed-in') return <Navigate to="/app" replace />;
  const approvedEmail = readStored(storageKeys.coachApproved) ? readStored(storageKeys.userEmail) : null;
  return <AuthLayout>{status === 'loading' ? <SessionLoading /> : approvedEmail ? <WelcomeBack email={approvedEmail} /> : <ApprovalRequired />}</AuthLayout>;
}
