import { useState } from 'react';
import { NavLink, useSearchParams } from 'react-router';
import { Play } from 'lucide-react';
import { useAuth } from '../../auth/AuthContext';
import { isAdmin } from '../../auth/roles';
import { Button } from '../../components/Button';
import { PageHeader } from '../../components/PageHeader';
import { BuyList } from './BuyList';
import { LastRun } from './LastRun';
import { PlannedOrders } from './PlannedOrders';
import { RunMrpDialog } from './RunMrpDialog';
import { DEFAULT_HORIZON, HORIZONS, SupplyDemand } from './SupplyDemand';
import './planning.css';

type Tab = 'orders' | 'supply-demand' | 'buy-list';

const TABS: { id: Tab; label: string; to: string }[] = [
  { id: 'orders', label: 'Planned orders', to: '/admin/planning' },
  { id: 'supply-demand', label: 'Supply & demand', to: '/admin/planning?tab=supply-demand' },
  { id: 'buy-list', label: 'Buy list', to: '/admin/planning?tab=buy-list' },
];

/**
 * MRP (issue 32): the last run and Run MRP (admins), the planned orders it suggested (firm,
 * release, cancel), an item's projected supply and demand, and the live buy list.
 */
export function PlanningPage() {
  const { user } = useAuth();
  const admin = isAdmin(user);
  const [params, setParams] = useSearchParams();
  const tabParam = params.get('tab');
  const tab: Tab = tabParam === 'supply-demand' || tabParam === 'buy-list' ? tabParam : 'orders';
  const [running, setRunning] = useState(false);
  const item = Number.parseInt(params.get('item') ?? '', 10) || null;
  const daysParam = Number(params.get('days'));
  const days = (HORIZONS as readonly number[]).includes(daysParam) ? daysParam : DEFAULT_HORIZON;

  const showChart = (productId: number) => setParams({ tab: 'supply-demand', item: String(productId), ...(days !== DEFAULT_HORIZON ? { days: String(days) } : {}) });
  const setChartParam = (key: 'item' | 'days', value: number) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        next.set('tab', 'supply-demand');
        if (key === 'days' && value === DEFAULT_HORIZON) next.delete('days');
        else next.set(key, String(value));
        return next;
      },
      { replace: true },
    );
  const onRun = admin ? () => setRunning(true) : undefined;

  return (
    <div className="page">
      <PageHeader
        title="Planning"
        description="What to buy and make, and when: MRP nets open orders against stock, incoming supply and safety stock."
        actions={
          admin && (
            <Button variant="primary" icon={<Play size={16} />} onClick={() => setRunning(true)}>
              Run MRP
            </Button>
          )
        }
      />
      <LastRun />
      <nav className="tabs" aria-label="Planning sections">
        {TABS.map((t) => (
          <NavLink key={t.id} to={t.to} end className={() => `tab${tab === t.id ? ' is-active' : ''}`} aria-current={tab === t.id ? 'page' : undefined}>
            {t.label}
          </NavLink>
        ))}
      </nav>
      {tab === 'supply-demand' ? (
        <SupplyDemand productId={item} days={days} onPick={(id) => setChartParam('item', id)} onDays={(d) => setChartParam('days', d)} />
      ) : tab === 'buy-list' ? (
        <BuyList />
      ) : (
        <PlannedOrders onChart={showChart} onRun={onRun} />
      )}
      {admin && <RunMrpDialog open={running} onClose={() => setRunning(false)} />}
    </div>
  );
}
