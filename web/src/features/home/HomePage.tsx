import { Link } from 'wouter';
import { format } from '../../i18n/catalogues';
import { useShellT } from '../../i18n/useT';
import { useLang } from '../../routing/useLang';
import { usePaths } from '../../routing/usePaths';
import { PageMeta } from '../../ui/PageMeta';
import { EDITIONS, FAQ_ITEMS, MAX_STARS, PRODUCTS, REVIEWS, type Product } from './content';
import './HomePage.css';

function Stars({ count, label }: { count: number; label: string }) {
  return (
    <span className="home-review__stars" role="img" aria-label={label}>
      {Array.from({ length: MAX_STARS }, (_, index) => (
        <svg key={index} viewBox="0 0 20 20" width="18" height="18" aria-hidden="true" focusable="false">
          <path
            d="M10 1.5l2.6 5.4 5.9.8-4.3 4.1 1 5.8L10 14.8l-5.2 2.8 1-5.8L1.5 7.7l5.9-.8z"
            fill={index < count ? 'currentColor' : 'none'}
            stroke="currentColor"
            strokeWidth="1.2"
          />
        </svg>
      ))}
    </span>
  );
}

function ProductList({ products }: { products: readonly Product[] }) {
  const t = useShellT();
  return (
    <ul className="home-products__list">
      {products.map((product) => (
        <li key={product.code} id={`product-${product.code}`} className="home-product" data-product={product.code}>
          <span className="home-product__platform">{t.home.platforms[product.platform]}</span>
          <span className="home-product__name">{t.home.products[product.code]}</span>
        </li>
      ))}
    </ul>
  );
}

/** Landing page: what the app is, the product family, guarantee, reviews, FAQ and the way to buy. */
export default function HomePage() {
  const t = useShellT();
  const lang = useLang();
  const paths = usePaths();
  const home = t.home;
  const faq = FAQ_ITEMS[lang];

  return (
    <div className="home">
      <PageMeta />
      <section className="home__hero" aria-labelledby="home-heading">
        <h1 id="home-heading" className="home__heading">
          {home.heading}
        </h1>
        <p className="home__lead">{home.lead}</p>
        <div className="home__actions">
          <Link to={paths.purchase()} className="button button--primary">
            {home.cta}
          </Link>
          <span className="home__guarantee">{home.guarantee}</span>
        </div>
      </section>

      <section className="home__section" aria-labelledby="home-features">
        <h2 id="home-features">{home.featuresHeading}</h2>
        <ul className="home__features">
          <li>{home.features.speed}</li>
          <li>{home.features.privacy}</li>
          <li>{home.features.korea}</li>
        </ul>
      </section>

      <section className="home__section" aria-labelledby="home-products">
        <h2 id="home-products">{home.productsHeading}</h2>
        <p className="home__section-lead">{home.productsLead}</p>
        <div className="home-products">
          <div className="home-products__group">
            <h3>{home.basicGroup}</h3>
            <ProductList products={PRODUCTS.filter((product) => !product.pro)} />
          </div>
          <div className="home-products__group">
            <h3>{home.proGroup}</h3>
            <ProductList products={PRODUCTS.filter((product) => product.pro)} />
          </div>
        </div>
      </section>

      <section className="home__section" aria-labelledby="home-editions">
        <h2 id="home-editions">{home.editionsHeading}</h2>
        <ul className="home-editions">
          {EDITIONS.map((edition) => (
            <li key={edition} className="home-edition" data-edition={edition}>
              <h3 className="home-edition__name">{home.editions[`${edition}Name`]}</h3>
              <p>{home.editions[`${edition}Body`]}</p>
            </li>
          ))}
        </ul>
      </section>

      <section className="home__section home-guarantee" aria-labelledby="home-guarantee">
        <h2 id="home-guarantee">{home.guaranteeHeading}</h2>
        <p>{home.guaranteeBody}</p>
      </section>

      <section className="home__section" aria-labelledby="home-reviews">
        <h2 id="home-reviews">{home.reviewsHeading}</h2>
        <ul className="home-reviews">
          {REVIEWS.map((review) => (
            <li key={review.id} className="home-review">
              <Stars count={review.stars} label={format(home.reviewRating, { stars: review.stars })} />
              <h3 className="home-review__title">{home.reviews[`${review.id}Title`]}</h3>
              <p className="home-review__text">{home.reviews[`${review.id}Text`]}</p>
              <p className="home-review__store">{home.stores[review.store]}</p>
            </li>
          ))}
        </ul>
      </section>

      <section className="home__section" aria-labelledby="home-faq">
        <h2 id="home-faq">{home.faqHeading}</h2>
        {faq.length === 0 ? (
          <p className="home-faq__empty">{home.faqEmpty}</p>
        ) : (
          <div className="home-faq">
            {faq.map((item) => (
              <details key={item.question} className="home-faq__item">
                <summary>{item.question}</summary>
                <p>{item.answer}</p>
              </details>
            ))}
          </div>
        )}
      </section>
    </div>
  );
}
