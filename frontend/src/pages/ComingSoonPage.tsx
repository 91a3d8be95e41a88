import { Link } from 'react-router';
import { CheckCircle2, Construction } from 'lucide-react';
import { PageHeader } from '../components/PageHeader';

export interface ComingSoonInfo {
  title: string;
  description: string;
  features: string[];
}

/** The frame of a page whose back end is not there yet: what it is, and what it will do. */
export function ComingSoonPage({ title, description, features }: ComingSoonInfo) {
  return (
    <div className="page">
      <PageHeader title={title} description={description} />
      <ComingSoonSection features={features} />
    </div>
  );
}

export function ComingSoonSection({ features }: Pick<ComingSoonInfo, 'features'>) {
  return (
    <section className="coming-soon" aria-labelledby="coming-soon-title" data-testid="coming-soon">
      <div className="coming-soon__icon" aria-hidden="true">
        <Construction size={24} />
      </div>
      <h2 id="coming-soon-title" className="coming-soon__title">
        This area is coming soon
      </h2>
      <p className="coming-soon__lead">We’re building it now. Here is what it will let you do:</p>
      <ul className="coming-soon__list">
        {features.map((f) => (
          <li key={f}>
            <CheckCircle2 size={16} aria-hidden="true" />
            <span>{f}</span>
          </li>
        ))}
      </ul>
      <p className="coming-soon__foot">
        In the meantime, <Link to="/admin/items">manage your items</Link> or return to the <Link to="/admin">dashboard</Link>.
      </p>
    </section>
  );
}
