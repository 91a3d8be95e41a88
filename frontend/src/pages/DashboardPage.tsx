import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { ArrowRight, Sparkles } from 'lucide-react';
import { dashboardApi } from '../api/endpoints';
import { ApiError } from '../api/errors';
import { useAuth } from '../auth/AuthContext';
import { isAdmin } from '../auth/roles';
import { PageHeader } from '../components/PageHeader';
import { Skeleton } from '../components/States';
import { Button } from '../components/Button';
import { formatMoney } from '../lib/format';
import { visibleNav } from '../layout/nav';

function greeting(now = new Date()): string {
  const h = now.getHours();
  if (h < 12) return 'Good morning';
  if (h < 18) return 'Good afternoon';
  return 'Good evening';
}

interface Kpi {
  label: string;
  value: string;
  to: string;
  hint: string;
}

export function DashboardPage() {
  const { user } = useAuth();
  const summary = useQuery({
    queryKey: ['dashboard', 'summary'],
    queryFn: ({ signal }) => dashboardApi.summary(signal),
    staleTime: 60_000,
  });

  const s = summary.data;
  const kpis: Kpi[] = s
    ? [
        { label: 'Pending quotes', value: String(s.quotes.pending), to: '/admin/quotes', hint: `${s.quotes.this_week} this week` },
        { label: 'In production', value: String(s.orders.in_production), to: '/admin/production', hint: `${s.production.in_progress} work orders running` },
        { label: 'Ready to ship', value: String(s.orders.ready_to_ship), to: '/admin/shipping', hint: `${s.orders.overdue} overdue` },
        { label: 'Low stock', value: String(s.inventory.low_stock_count), to: '/admin/items', hint: 'Items below reorder point' },
        { label: 'Revenue, 30 days', value: formatMoney(s.revenue.last_30_days), to: '/admin/orders', hint: `${s.revenue.orders_last_30_days} orders` },
      ]
    : [];

  const unavailable = summary.error instanceof ApiError && summary.error.isNotFound;
  const shortcuts = visibleNav(isAdmin(user))
    .flatMap((g) => g.items)
    .filter((i) => ['/admin/items', '/admin/orders', '/admin/production', '/admin/purchasing', '/admin/printers', '/admin/customers'].includes(i.to));

  return (
    <div className="page">
      <PageHeader
        title={`${greeting()}, ${user?.first_name?.trim() || 'there'}`}
        description="Here is where your shop stands today."
        actions={
          <Link to="/admin/items" className="btn btn--primary btn--md">
            Manage items
          </Link>
        }
      />

      <section aria-label="Key figures" className="kpi-grid">
        {summary.isPending &&
          Array.from({ length: 5 }, (_, i) => (
            <div key={i} className="kpi">
              <Skeleton width="50%" />
              <Skeleton width="35%" height={26} />
              <Skeleton width="60%" />
            </div>
          ))}
        {kpis.map((k) => (
          <Link key={k.label} to={k.to} className="kpi kpi--link">
            <span className="kpi__label">{k.label}</span>
            <span className="kpi__value">{k.value}</span>
            <span className="kpi__hint">{k.hint}</span>
          </Link>
        ))}
        {summary.error && (
          <div className="kpi-grid__notice">
            <Sparkles size={18} aria-hidden="true" />
            <div>
              <strong>{unavailable ? 'Your key figures will appear here' : 'Key figures could not be loaded'}</strong>
              <span>
                {unavailable
                  ? 'Quotes, production, shipping, stock and revenue at a glance, once the server offers the dashboard.'
                  : summary.error.message}
              </span>
            </div>
            {!unavailable && (
              <Button size="sm" onClick={() => void summary.refetch()}>
                Try again
              </Button>
            )}
          </div>
        )}
      </section>

      <section className="card" aria-labelledby="shortcuts-title">
        <header className="card__header">
          <h2 id="shortcuts-title" className="card__title">
            Jump back in
          </h2>
        </header>
        <ul className="shortcut-grid">
          {shortcuts.map((i) => (
            <li key={i.to}>
              <Link to={i.to} className="shortcut">
                <span className="shortcut__icon" aria-hidden="true">
                  <i.icon size={18} />
                </span>
                <span className="shortcut__label">{i.label}</span>
                <ArrowRight size={16} aria-hidden="true" className="shortcut__arrow" />
              </Link>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
