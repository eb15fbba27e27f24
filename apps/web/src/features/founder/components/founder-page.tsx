import { usePageMeta } from '../../../lib/use-page-meta';
import { buttonClasses, ButtonLink } from '../../../ui/button';
import { Card } from '../../../ui/card';
import { Icon, type IconName } from '../../../ui/icon';
import { PublicLayout } from '../../../ui/layout/public-layout';

const bookingEmail = 'hello@sparkevolutionlabs.com';

const credentials: ReadonlyArray<{ icon: IconName; title: string; text: string }> = [
  { icon: 'book', title: 'Doctoral researcher', text: 'Dissertation study of habit formation with real participants over full evolution cycles.' },
  { icon: 'award', title: 'Certified trainer', text: 'Years of coaching people through change in the gym, in the office and at home.' },
  { icon: 'mic', title: 'Speaker', text: 'Keynotes and workshops on behaviour change, coaching systems and sustainable performance.' },
];

const talks = [
  'Small Sparks, Big Shifts: the science of habits that last',
  'Coaching with data, without losing the human',
  'Rest is a strategy: recovery in high-performance teams',
];

export default function FounderPage() {
  usePageMeta({
    title: 'The founder',
    description: 'Meet the founder of Spark: doctoral researcher, certified trainer and speaker on habit formation and behaviour change.',
    path: '/me',
  });
  return (
    <PublicLayout>
      <section className="bg-ink-950 px-4 py-20 text-white sm:px-6 sm:py-24">
        <div className="mx-auto grid max-w-6xl items-center gap-12 md:grid-cols-[1.4fr_1fr]">
          <div>
            <p className="text-sm font-semibold tracking-widest text-spark-300 uppercase">The Proof</p>
            <h1 className="mt-3 text-4xl font-bold tracking-tight text-balance sm:text-5xl">Research first. Then a product.</h1>
            <p className="mt-5 text-lg leading-relaxed text-slate-300">
              Spark’s founder spent years as a certified trainer watching motivated people lose their momentum, then went back to study why. The doctoral
              research that followed became the Spark method: fixed cycles, small daily evidence, and a coach who can see it.
            </p>
            <div className="mt-8 flex flex-col gap-3 sm:flex-row">
              <a href={`mailto:${bookingEmail}?subject=Speaking%20inquiry`} className={buttonClasses('primary', 'lg')}>
                Book me to speak
              </a>
              <ButtonLink to="/donate" variant="inverse" size="lg">
                Invest in Spark
              </ButtonLink>
            </div>
          </div>
          <figure className="mx-auto w-full max-w-xs">
            <img
              src="/founder-portrait.svg"
              alt="Illustrated portrait of Spark's founder"
              width={320}
              height={400}
              className="h-auto w-full rounded-3xl shadow-2xl"
            />
          </figure>
        </div>
      </section>
      <section aria-labelledby="credentials-title" className="px-4 py-20 sm:px-6">
        <div className="mx-auto max-w-6xl">
          <h2 id="credentials-title" className="text-3xl font-bold tracking-tight text-ink-950">
            Credentials
          </h2>
          <ul className="mt-10 grid gap-6 md:grid-cols-3">
            {credentials.map((credential) => (
              <li key={credential.title}>
                <Card className="h-full">
                  <Icon name={credential.icon} className="size-8 text-spark-600" />
                  <h3 className="mt-4 text-lg font-semibold text-ink-950">{credential.title}</h3>
                  <p className="mt-2 text-slate-600">{credential.text}</p>
                </Card>
              </li>
            ))}
          </ul>
        </div>
      </section>
      <section aria-labelledby="talks-title" className="bg-slate-50 px-4 py-20 sm:px-6">
        <div className="mx-auto grid max-w-6xl gap-10 md:grid-cols-2">
          <div>
            <h2 id="talks-title" className="text-3xl font-bold tracking-tight text-ink-950">
              Talks and workshops
            </h2>
            <p className="mt-4 text-slate-600">Available for conferences, company offsites and coaching programmes, in person or online.</p>
            <a href={`mailto:${bookingEmail}?subject=Speaking%20inquiry`} className={buttonClasses('secondary', 'md', 'mt-6')}>
              <Icon name="mail" className="size-5" />
              {bookingEmail}
            </a>
          </div>
          <ul className="space-y-3">
            {talks.map((talk) => (
              <li key={talk} className="rounded-2xl bg-white p-5 font-medium text-ink-950 shadow-soft ring-1 ring-slate-200/70">
                {talk}
              </li>
            ))}
          </ul>
        </div>
      </section>
    </PublicLayout>
  );
}
