import { Link } from 'react-router';
import { Compass } from 'lucide-react';
import { useDocumentTitle } from '../components/PageHeader';
import { LogoMark } from '../components/Logo';

export function NotFoundPage({ inShell = false }: { inShell?: boolean }) {
  useDocumentTitle('Page not found');
  const panel = (
    <div className="center-panel" data-testid="not-found">
      <div className="center-panel__icon" aria-hidden="true">
        <Compass size={26} />
      </div>
      <p className="center-panel__code">404</p>
      <h1 className="center-panel__title">We couldn’t find that page</h1>
      <p className="center-panel__text">The address may be mistyped, or the page may have moved.</p>
      <Link className="btn btn--primary btn--md" to="/admin">
        Go to the dashboard
      </Link>
    </div>
  );
  if (inShell) return panel;
  return (
    <div className="public-page">
      <header className="public-page__header">
        <Link to="/admin" className="public-page__brand" aria-label="Strata home">
          <LogoMark />
          <span>Strata</span>
        </Link>
      </header>
      <main className="public-page__main">{panel}</main>
    </div>
  );
}
