import { useState } from 'preact/hooks';
import { useLocation } from 'wouter-preact';
import { PageTitle } from '../components/page-title.tsx';
import { asinFrom, productHref } from '../format/product-values.ts';
import { DOMAINS } from './job-form.tsx';

export interface ProductWhere {
  asin: string;
  domain: string;
  zip: string;
}

/** Which product, on which storefront, delivered where: an ASIN or a product URL, a storefront and an optional ZIP. */
export function ProductLookup(props: { initial?: Partial<ProductWhere>; submitLabel: string; onSubmit: (where: ProductWhere) => void }) {
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      class="inline-form"
      onSubmit={(event) => {
        event.preventDefault();
        const data = new FormData(event.currentTarget as HTMLFormElement);
        const asin = asinFrom(String(data.get('asin') ?? ''));
        if (!asin) {
          setError('Give an ASIN (10 letters and digits) or a product URL with /dp/ in it.');
          return;
        }
        setError(null);
        props.onSubmit({ asin, domain: String(data.get('domain') ?? '').trim(), zip: String(data.get('zip') ?? '').trim() });
      }}
    >
      <label>
        ASIN or product URL
        <input name="asin" required defaultValue={props.initial?.asin ?? ''} placeholder="B08N5WRWNW" aria-describedby="product-lookup-error" />
      </label>
      <label>
        Storefront
        <input name="domain" list="product-marketplaces" placeholder="amazon.com" defaultValue={props.initial?.domain ?? ''} />
        <datalist id="product-marketplaces">
          {DOMAINS.map((d) => (
            <option key={d} value={d} />
          ))}
        </datalist>
      </label>
      <label>
        Delivery ZIP (optional)
        <input name="zip" maxLength={16} defaultValue={props.initial?.zip ?? ''} placeholder="10115" />
      </label>
      <button type="submit">{props.submitLabel}</button>
      <p id="product-lookup-error" class="error" role="alert">
        {error ?? ''}
      </p>
    </form>
  );
}

/** Find a product's history: the way to a product page when no job or monitor links to it. */
export function ProductsPage() {
  const [, navigate] = useLocation();
  return (
    <section>
      <PageTitle title="Products">Products</PageTitle>
      <p>
        The price, stock, seller, rating and best-sellers ranks of every product your organization's details jobs and monitors crawled, kept as they changed.
      </p>
      <div class="card">
        <ProductLookup submitLabel="Show history" onSubmit={(where) => navigate(productHref(where.asin, where))} />
      </div>
    </section>
  );
}
