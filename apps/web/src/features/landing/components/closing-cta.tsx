import { ButtonLink } from '../../../ui/button';

export function ClosingCta() {
  return (
    <section aria-labelledby="closing-title" className="render-when-visible bg-white px-4 py-20 sm:px-6 sm:py-24">
      <div className="mx-auto max-w-5xl rounded-3xl bg-gradient-to-br from-spark-500 to-spark-700 px-6 py-16 text-center text-white shadow-soft sm:px-12">
        <h2 id="closing-title" className="text-3xl font-bold tracking-tight text-balance sm:text-4xl">
          Your next evolution starts with one spark
        </h2>
        <p className="mx-auto mt-4 max-w-2xl text-lg text-spark-50">
          Tell us what you want to change. A coach reviews every request personally within 24-48 hours.
        </p>
        <ButtonLink to="/interest" variant="dark" size="lg" className="mt-8">
          Get The Spark
        </ButtonLink>
      </div>
    </section>
  );
}
