import { Link } from 'react-router-dom';
import { usePageMeta } from '../../../lib/use-page-meta';
import { ButtonLink } from '../../../ui/button';
import { Card } from '../../../ui/card';
import { Icon, IconTile } from '../../../ui/icon';
import { PublicLayout } from '../../../ui/layout/public-layout';
import { sparkProducts, type SparkProduct } from '../products-catalog';

// The two tools you sign in to get their own entry point; the engines run behind them.
const productActions: Record<SparkProduct['id'], { label: string; to: string }> = {
  'spark-app': { label: 'Open The Spark', to: '/signin?product=spark' },
  'coach-dashboard': { label: 'Open Coach Dashboard', to: '/signin?product=coach' },
  'plan-generator': { label: 'Request access', to: '/interest' },
  'pattern-engine': { label: 'See the research', to: '/#research' },
};

export default function ProductsPage() {
  usePageMeta({
    title: 'Products',
    description: 'The Spark ecosystem: the client app, the coach dashboard, the AI evolution planner and the local pattern engine.',
    path: '/products',
  });
  return (
    <PublicLayout>
      <section className="bg-ink-950 px-4 py-20 text-white sm:px-6 sm:py-24">
        <div className="mx-auto max-w-6xl">
          <p className="text-sm font-semibold tracking-widest text-spark-300 uppercase">Products</p>
          <h1 className="mt-3 max-w-3xl text-4xl font-bold tracking-tight text-balance sm:text-5xl">Four tools built around one method</h1>
          <p className="mt-5 max-w-2xl text-lg text-slate-300">
            Clients capture, coaches guide and two AI engines learn from every cycle. Coaches pay one flat rate, with no tiers: professional infrastructure,
            fair pricing.
          </p>
          <div className="mt-8 flex flex-col gap-3 sm:flex-row">
            <ButtonLink to="/interest" size="lg">
              Get Started
            </ButtonLink>
            <ButtonLink to={{ pathname: '/', hash: '#method' }} variant="inverse" size="lg">
              Explore the method
            </ButtonLink>
          </div>
        </div>
      </section>
      <section aria-label="The four tools" className="bg-slate-50 px-4 py-20 sm:px-6">
        <ul className="mx-auto grid max-w-6xl gap-6 md:grid-cols-2">
          {sparkProducts.map((product) => (
            <li key={product.id}>
              <Card className="flex h-full flex-col p-8">
                <IconTile name={product.icon} tone={product.id === 'coach-dashboard' ? 'ink' : 'spark'} />
                <p className="mt-5 text-xs font-semibold tracking-widest text-slate-500 uppercase">{product.tagline}</p>
                <h2 className="mt-1 text-2xl font-semibold text-ink-950">{product.name}</h2>
                <p className="mt-3 leading-relaxed text-slate-600">{product.summary}</p>
                <ul className="mt-5 flex-1 space-y-2">
                  {product.highlights.map((highlight) => (
                    <li key={highlight} className="flex items-center gap-2 text-sm text-slate-700">
                      <Icon name="check" className="size-4 text-spark-600" />
                      {highlight}
                    </li>
                  ))}
                </ul>
                <ButtonLink to={productActions[product.id].to} className="mt-8 self-start" variant={product.id === 'coach-dashboard' ? 'secondary' : 'primary'}>
                  {productActions[product.id].label}
                </ButtonLink>
              </Card>
            </li>
          ))}
        </ul>
        <div className="mx-auto mt-16 flex max-w-6xl flex-col items-start justify-between gap-6 rounded-2xl bg-white p-8 shadow-soft ring-1 ring-slate-200/70 md:flex-row md:items-center">
          <div>
            <h2 className="text-xl font-semibold text-ink-950">Curious why it works?</h2>
            <p className="mt-1 text-slate-600">Read about the research, or meet the founder behind it.</p>
          </div>
          <div className="flex flex-wrap gap-3">
            <ButtonLink to={{ pathname: '/', hash: '#research' }} variant="secondary">
              The research
            </ButtonLink>
            <ButtonLink to="/me" variant="secondary">
              Meet the founder
            </ButtonLink>
          </div>
        </div>
        <p className="mx-auto mt-10 max-w-6xl text-center text-sm text-slate-600">
          <Link to="/signin" className="font-semibold text-ink-800 underline-offset-4 hover:underline focus-visible:outline-3 focus-visible:outline-spark-500">
            Returning user? Sign in here
          </Link>
        </p>
      </section>
    </PublicLayout>
  );
}
