import { usePageMeta } from '../../../lib/use-page-meta';
import { Badge } from '../../../ui/badge';
import { ButtonLink } from '../../../ui/button';
import { Card } from '../../../ui/card';
import { IconTile } from '../../../ui/icon';
import { PublicLayout } from '../../../ui/layout/public-layout';
import { Section } from '../../../ui/layout/section';
import { DitlCarousel } from './ditl-carousel';
import { featureBlocks, howItWorks, testimonials } from './interest-content';
import { InterestForm } from './interest-form';

const finePrint = 'No credit card required • Free to start • Cancel anytime';

export default function InterestPage() {
  usePageMeta({
    title: 'Start your evolution',
    description: 'Join Spark: share your goal, capture daily sparks and get guidance from a coach. Free to start, no credit card required.',
    path: '/interest',
  });
  return (
    <PublicLayout>
      <section className="relative overflow-hidden bg-ink-950 text-white">
        <div aria-hidden="true" className="absolute inset-0 bg-[radial-gradient(ellipse_at_top_left,rgb(249_127_7/0.3),transparent_55%)]" />
        <div className="relative mx-auto max-w-6xl px-4 py-20 sm:px-6 sm:py-28">
          <Badge tone="onDark">Coach-reviewed access</Badge>
          <h1 className="mt-6 max-w-3xl text-4xl font-bold tracking-tight text-balance sm:text-5xl">
            Turn small daily sparks into a <span className="text-spark-400">lasting transformation</span>
          </h1>
          <p className="mt-5 max-w-2xl text-lg leading-relaxed text-slate-300">
            Tell us who you are and a coach will review your request within 24-48 hours. Approved members get a one-time sign-in link to begin onboarding.
          </p>
          <div className="mt-10 max-w-4xl rounded-2xl bg-white/5 p-5 ring-1 ring-white/10 sm:p-6">
            <InterestForm tone="dark" />
          </div>
          <p className="mt-4 text-sm text-slate-400">{finePrint}</p>
        </div>
      </section>

      <Section eyebrow="What you get" title="Everything you need to change one habit, for good">
        <ul className="grid gap-6 md:grid-cols-3">
          {featureBlocks.map((feature) => (
            <li key={feature.title}>
              <Card className="h-full">
                <IconTile name={feature.icon} />
                <h3 className="mt-5 text-lg font-semibold text-ink-950">{feature.title}</h3>
                <p className="mt-2 leading-relaxed text-slate-600">{feature.text}</p>
              </Card>
            </li>
          ))}
        </ul>
      </Section>

      <Section tone="muted" eyebrow="How It Works" title="Four steps from intention to evolution">
        <ol className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {howItWorks.map((step, index) => (
            <li key={step.title} className="rounded-2xl bg-white p-6 shadow-soft ring-1 ring-slate-200/70">
              <span className="inline-flex size-9 items-center justify-center rounded-full bg-spark-500 text-sm font-bold text-ink-950">{index + 1}</span>
              <h3 className="mt-4 font-semibold text-ink-950">{step.title}</h3>
              <p className="mt-1 text-sm leading-relaxed text-slate-600">{step.text}</p>
            </li>
          ))}
        </ol>
      </Section>

      <Section
        tone="dark"
        eyebrow="A Day in the Life"
        title="See what a day with Spark looks like"
        intro="Every approved client receives a personalised “Day in the Life” presentation built from their own goals and routine. Here is a glimpse."
      >
        <DitlCarousel />
        <div className="mt-10 text-center">
          <ButtonLink to={{ pathname: '/', hash: '#ecosystem' }} variant="inverse" size="lg">
            Learn More<span className="sr-only"> about the Spark ecosystem</span>
          </ButtonLink>
        </div>
      </Section>

      <Section eyebrow="Stories" title="People who started with one spark">
        <ul className="grid gap-6 md:grid-cols-3">
          {testimonials.map((testimonial) => (
            <li key={testimonial.name}>
              <Card className="flex h-full flex-col">
                <p aria-hidden="true" className="font-display text-5xl leading-none text-spark-400">
                  “
                </p>
                <blockquote className="mt-2 flex-1 leading-relaxed text-slate-700">{testimonial.quote}</blockquote>
                <p className="mt-6 font-semibold text-ink-950">{testimonial.name}</p>
                <p className="text-sm text-slate-600">{testimonial.detail}</p>
              </Card>
            </li>
          ))}
        </ul>
      </Section>

      <section aria-labelledby="signup-again-title" className="render-when-visible bg-slate-50 px-4 py-20 sm:px-6">
        <div className="mx-auto max-w-4xl rounded-3xl bg-white p-6 text-center shadow-soft ring-1 ring-slate-200/70 sm:p-12">
          <h2 id="signup-again-title" className="text-3xl font-bold tracking-tight text-ink-950">
            Ready for your first spark?
          </h2>
          <p className="mt-3 text-slate-600">It takes 30 seconds. A coach takes it from there.</p>
          <div className="mt-8 text-left">
            <InterestForm />
          </div>
          <p className="mt-6 text-sm text-slate-600">{finePrint}</p>
        </div>
      </section>
    </PublicLayout>
  );
}
