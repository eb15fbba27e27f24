import { usePageMeta } from '../../../lib/use-page-meta';
import { PublicLayout } from '../../../ui/layout/public-layout';
import { ClosingCta } from './closing-cta';
import { EcosystemSection } from './ecosystem-section';
import { LandingHero } from './landing-hero';
import { MethodSection } from './method-section';
import { ProductsSection } from './products-section';
import { ResearchSection } from './research-section';

export default function LandingPage() {
  usePageMeta({
    title: 'Spark: research-based habit coaching',
    description:
      'Spark is a research-based habit-coaching system: capture daily sparks, follow 21- and 90-day evolution cycles and work with a coach who sees your progress.',
    path: '/',
  });
  return (
    <PublicLayout>
      <LandingHero />
      <MethodSection />
      <ResearchSection />
      <EcosystemSection />
      <ProductsSection />
      <ClosingCta />
    </PublicLayout>
  );
}
