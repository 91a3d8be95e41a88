import { lazy, Suspense, useId, useMemo, useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { LineChart, Search } from 'lucide-react';
import { itemsApi } from '../../api/endpoints';
import { queryKeys } from '../../api/queryKeys';
import { EmptyState, ErrorState, Skeleton } from '../../components/States';
import { formatQty, toNumber } from '../../lib/format';
import { useDebouncedValue } from '../../lib/useDebounce';
import { formatDay } from '../dashboard/dashboardData';
import { CHART_COLORS } from './chartColors';
import { MAX_PAGE_SIZE, lowestBalance, planningApi, supplyDemandSeries } from './planningApi';

const SupplyDemandChart = lazy(() => import('./SupplyDemandChart'));

/** The windows the chart offers (days ahead). */
export const HORIZONS = [30, 60, 90, 180] as const;
export const DEFAULT_HORIZON = 60;

interface PickedItem {
  id: number;
  sku: string;
  name: string;
}

/** Items that have planned orders (one page of the largest size), for the quick picker. */
function usePlannedItems() {
  return useQuery({
    queryKey: queryKeys.planning.plannedItems(),
    queryFn: async ({ signal }) => {
      const page = await planningApi.plannedOrders({ page: 1, page_size: MAX_PAGE_SIZE, exceptions_first: true }, signal);
      const seen = new Map<number, PickedItem>();
      for (const o of page.items) {
        if (!seen.has(o.product_id)) seen.set(o.product_id, { id: o.product_id, sku: o.product_sku ?? `#${o.product_id}`, name: o.product_name ?? '' });
      }
      return [...seen.values()];
    },
  });
}

/** Pick an item: from those with planned orders, or any item by SKU or name. */
function ItemPicker({ productId, onPick }: { productId: number | null; onPick: (id: number) => void }) {
  const planned = usePlannedItems();
  const [typed, setTyped] = useState('');
  const search = useDebouncedValue(typed.trim(), 250);
  const request = { search, limit: 8, picker: 'planning' };
  const found = useQuery({
    queryKey: queryKeys.items.list(request),
    queryFn: ({ signal }) => itemsApi.list({ search, limit: 8 }, signal),
    enabled: search.length > 0,
    placeholderData: keepPreviousData,
  });
  const resultsId = useId();
  const options = planned.data ?? [];
  const inList = productId !== null && options.some((o) => o.id === productId);
  return (
    <div className="plan-picker">
      <label className="field">
        <span className="field__label">Item with planned orders</span>
        <select
          className="input input--select"
          value={inList ? String(productId) : ''}
          disabled={planned.isPending}
          onChange={(e) => e.target.value && onPick(Number(e.target.value))}
        >
          <option value="">{planned.isPending ? 'Loading…' : options.length ? 'Choose an item' : 'No planned orders yet'}</option>
          {options.map((o) => (
            <option key={o.id} value={o.id}>
              {o.sku}
              {o.name ? ` · ${o.name}` : ''}
            </option>
          ))}
        </select>
      </label>
      <div className="field plan-picker__search">
        <label className="field__label" htmlFor={`${resultsId}-q`}>
          Or find any item
        </label>
        <div className="search-box">
          <Search size={16} className="search-box__icon" aria-hidden="true" />
          <input
            id={`${resultsId}-q`}
            type="search"
            className="input search-box__input"
            placeholder="SKU or name"
            value={typed}
            aria-controls={resultsId}
            onChange={(e) => setTyped(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Escape') setTyped('');
            }}
          />
        </div>
        {search && (
          <ul id={resultsId} className="plan-picker__results" aria-label="Matching items" aria-busy={found.isFetching || undefined}>
            {found.isPending ? (
              <li className="muted">Searching…</li>
            ) : found.isError ? (
              <li className="text-danger">Could not search: {found.error.message}</li>
            ) : found.data.items.length === 0 ? (
              <li className="muted">No item matches “{search}”.</li>
            ) : (
              found.data.items.map((it) => (
                <li key={it.id}>
                  <button
                    type="button"
                    className="plan-picker__result"
                    onClick={() => {
                      onPick(it.id);
                      setTyped('');
                    }}
                  >
                    <span className="mono">{it.sku}</span> <span>{it.name}</span>
                  </button>
                </li>
              ))
            )}
          </ul>
        )}
      </div>
    </div>
  );
}

function Stat({ label, value, tone, hint }: { label: string; value: string; tone?: 'warning' | 'danger' | 'success'; hint?: string }) {
  return (
    <div className={`stat${tone ? ` stat--${tone}` : ''}`}>
      <dt>{label}</dt>
      <dd>{value}</dd>
      {hint && <span className="plan-stat__hint">{hint}</span>}
    </div>
  );
}

function Legend({ safety }: { safety: boolean }) {
  return (
    <ul className="plan-legend" aria-hidden="true">
      <li>
        <span className="plan-legend__line" style={{ background: CHART_COLORS.balance }} /> Projected balance
      </li>
      <li>
        <span className="plan-swatch" style={{ background: CHART_COLORS.supply }} /> Supply
      </li>
      <li>
        <span className="plan-swatch" style={{ background: CHART_COLORS.demand }} /> Demand
      </li>
      {safety && (
        <li>
          <span className="plan-legend__line plan-legend__line--dashed" style={{ borderColor: CHART_COLORS.safety }} /> Safety stock
        </li>
      )}
    </ul>
  );
}

interface SupplyDemandProps {
  productId: number | null;
  days: number;
  onPick: (productId: number) => void;
  onDays: (days: number) => void;
}

/** An item's projected balance: when it runs short, how many days it lasts, and the chart. */
export function SupplyDemand({ productId, days, onPick, onDays }: SupplyDemandProps) {
  const timeline = useQuery({
    queryKey: queryKeys.planning.supplyDemand(productId, days),
    queryFn: ({ signal }) => planningApi.supplyDemand(productId!, days, signal),
    enabled: productId !== null,
    placeholderData: keepPreviousData,
  });
  const data = timeline.data?.product_id === productId ? timeline.data : undefined;
  const series = useMemo(() => (data ? supplyDemandSeries(data, days) : []), [data, days]);
  const low = lowestBalance(series);
  const safety = toNumber(data?.safety_stock) ?? 0;

  let body;
  if (productId === null) {
    body = <EmptyState icon={<LineChart size={22} />} title="Choose an item" description="Pick an item to see its projected stock, day by day, against what is planned to come in and go out." />;
  } else if (timeline.isError && !data) {
    body = <ErrorState error={timeline.error} onRetry={() => void timeline.refetch()} />;
  } else if (!data) {
    body = (
      <div className="plan-sd__loading" aria-busy="true" aria-label="Loading supply and demand">
        <Skeleton width="100%" height={56} />
        <Skeleton width="100%" height={300} />
      </div>
    );
  } else {
    const shortage = data.projected_shortage_date;
    const daysOfSupply = data.days_of_supply;
    const chartLabel =
      `Projected balance of ${data.product_sku} over the next ${days} days: ${formatQty(data.current_available)} available today` +
      (low ? `, lowest ${formatQty(low.balance)} on ${formatDay(low.date)}` : '') +
      (shortage ? `, below the safety stock of ${formatQty(data.safety_stock)} from ${formatDay(shortage)}.` : ', never below the safety stock.');
    body = (
      <>
        <div className="plan-sd__title">
          <h2 className="section-title">
            <span className="mono">{data.product_sku}</span> {data.product_name}
          </h2>
        </div>
        <dl className="stat-row stat-row--compact">
          <Stat label="On hand" value={formatQty(data.current_on_hand)} />
          <Stat label="Available" value={formatQty(data.current_available)} tone={(toNumber(data.current_available) ?? 0) < safety ? 'warning' : undefined} />
          <Stat label="Safety stock" value={formatQty(data.safety_stock)} />
          <Stat label="Projected shortage" value={shortage ? formatDay(shortage) : 'None'} tone={shortage ? 'danger' : 'success'} hint={shortage ? shortage : `within ${days} days`} />
          <Stat
            label="Days of supply"
            value={daysOfSupply === null ? `${days}+` : String(daysOfSupply)}
            tone={daysOfSupply === null ? 'success' : daysOfSupply <= 7 ? 'danger' : 'warning'}
            hint={daysOfSupply === null ? 'no shortage in the window' : daysOfSupply === 0 ? 'short today' : undefined}
          />
        </dl>
        <div className={`plan-sd__chart${timeline.isFetching ? ' is-fetching' : ''}`}>
          <Suspense fallback={<Skeleton width="100%" height={320} />}>
            <SupplyDemandChart series={series} safetyStock={safety} shortageDate={shortage} label={chartLabel} />
          </Suspense>
          <Legend safety={safety > 0} />
        </div>
        {data.entries.length <= 1 && <p className="muted">No open demand or supply in the next {days} days: the balance stays where it is.</p>}
      </>
    );
  }

  return (
    <section className="card card--pad plan-sd" aria-label="Supply and demand">
      <div className="plan-sd__controls">
        <ItemPicker productId={productId} onPick={onPick} />
        <label className="field plan-sd__days">
          <span className="field__label">Window</span>
          <select className="input input--select" value={days} onChange={(e) => onDays(Number(e.target.value))}>
            {HORIZONS.map((d) => (
              <option key={d} value={d}>
                Next {d} days
              </option>
            ))}
          </select>
        </label>
      </div>
      {body}
    </section>
  );
}
