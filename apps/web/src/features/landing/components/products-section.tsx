import { ButtonLink } from '../../../ui/button';
import { Card } from '../../../ui/card';
import { IconTile } from '../../../ui/icon';
import { Section } from '../../../ui/layout/section';
import { sparkProducts } from '../../products/products-catalog';

export function ProductsSection() {
  return (
    <Section
      id="products"
      eyebrow="The Products"
      title="Four tools. One evolution."
      intro="Each tool does one job well, and together they close the loop between what you plan, what you do and what you learn."
    >
      <ul className="grid gap-6 sm:grid-cols-2">
        {sparkProducts.map((product) => (
          <li key={product.id}>
            <Card className="flex h-full flex-col">
              <IconTile name={product.icon} tone={product.id === 'coach-dashboard' ? 'ink' : 'spark'} />
              <p className="mt-5 text-xs font-semibold tracking-widest text-slate-500 uppercase">{product.tagline}</p>
              <h3 className="mt-1 text-xl font-semibold text-ink-950">{product.name}</h3>
              <p className="mt-2 flex-1 leading-relaxed text-slate-600">{product.summary}</p>
              <ButtonLink to="/products" variant="secondary" className="mt-6 self-start">
                {/* The visible label of docs/product.md §2; the hidden rest tells screen readers and crawlers where it goes. */}
                Learn More<span className="sr-only"> about {product.name}</span>
              </ButtonLink>
            </Card>
          </li>
        ))}
      </ul>
    </Section>
  );
}
