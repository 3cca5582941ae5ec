import { Link } from 'react-router-dom';
import { useT } from '../../i18n/useT';
import { usePaths } from '../../routing/usePaths';
import { PageMeta } from '../../ui/PageMeta';
import './HomePage.css';

/** Landing page: what the app is, where it runs, and the way to buy it. */
export default function HomePage() {
  const t = useT();
  const paths = usePaths();
  const home = t.home;

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

      <section className="home__section" aria-labelledby="home-platforms">
        <h2 id="home-platforms">{home.platformsHeading}</h2>
        <ul className="home__platforms">
          <li>{home.platforms.android}</li>
          <li>{home.platforms.ios}</li>
          <li>{home.platforms.mac}</li>
          <li>{home.platforms.windows}</li>
        </ul>
      </section>
    </div>
  );
}
