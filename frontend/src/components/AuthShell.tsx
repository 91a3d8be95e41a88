import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Boxes, Factory, ScanSearch, Truck } from 'lucide-react';
import { LogoMark } from './Logo';
import { useDocumentTitle } from './PageHeader';

interface AuthShellProps {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
  wide?: boolean;
  /** A status icon above the title (result pages). */
  icon?: ReactNode;
}

const POINTS = [
  { icon: Boxes, text: 'Items, BOMs and inventory that stay in step with production' },
  { icon: Factory, text: 'Work orders from the print queue to quality check' },
  { icon: Truck, text: 'Orders, purchasing and shipping in one place' },
  { icon: ScanSearch, text: 'Full traceability from spool to customer' },
];

/** Public pages (sign-in, password reset, setup): brand panel beside a focused card. */
export function AuthShell({ title, subtitle, children, footer, wide, icon }: AuthShellProps) {
  useDocumentTitle(title);
  return (
    <div className="auth">
      <aside className="auth__brand" aria-hidden="true">
        <div className="auth__brand-inner">
          <div className="auth__logo">
            <LogoMark size={36} />
            <span>Strata</span>
          </div>
          <p className="auth__tagline">The back office for small manufacturers.</p>
          <ul className="auth__points">
            {POINTS.map(({ icon: Icon, text }) => (
              <li key={text}>
                <span className="auth__point-icon">
                  <Icon size={16} />
                </span>
                {text}
              </li>
            ))}
          </ul>
        </div>
      </aside>
      <main className="auth__main">
        <div className={`auth__card${wide ? ' auth__card--wide' : ''}`}>
          <Link to="/admin/login" className="auth__mobile-logo" aria-label="Strata">
            <LogoMark size={30} />
            <span>Strata</span>
          </Link>
          {icon ? (
            <div className="auth__head">
              {icon}
              <h1 className="auth__title">{title}</h1>
            </div>
          ) : (
            <h1 className="auth__title">{title}</h1>
          )}
          {subtitle && <p className="auth__subtitle">{subtitle}</p>}
          {children}
        </div>
        {footer && <div className="auth__footer">{footer}</div>}
      </main>
    </div>
  );
}
