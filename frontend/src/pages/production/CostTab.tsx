import { lazy, Suspense, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Calculator, RefreshCw } from 'lucide-react';
import { errorMessage } from '../../api/errors';
import { queryKeys } from '../../api/queryKeys';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { FormError } from '../../components/Field';
import { EmptyState, ErrorState, Skeleton } from '../../components/States';
import { useToast } from '../../components/Toast';
import { formatMoney, formatQty } from '../../lib/format';
import { COST_COLORS } from './costColors';
import { costIsEmpty, costRows, formatPercent, varianceTone, type CostRow } from './orderInsights';
import { productionApi, type CostBreakdown, type ProductionOrder } from './productionApi';

const CostChart = lazy(() => import('./CostChart'));

function Variance({ value, percent }: { value: number; percent?: number | null }) {
  const tone = varianceTone(value);
  const sign = value > 0 ? '+' : value < 0 ? '−' : '';
  return (
    <span className={`cost-variance cost-variance--${tone}`}>
      {percent === undefined ? `${sign}${formatMoney(Math.abs(value))}` : formatPercent(percent)}
      {tone !== 'even' && percent === undefined && <span className="sr-only">{tone === 'over' ? ' over the estimate' : ' under the estimate'}</span>}
    </span>
  );
}

function chartLabel(code: string, rows: CostRow[]) {
  return `Estimated against actual cost of ${code}: ${rows.map((r) => `${r.label.toLowerCase()} ${formatMoney(r.estimated)} estimated, ${formatMoney(r.actual)} actual`).join('; ')}.`;
}

function CostTables({ b }: { b: CostBreakdown }) {
  return (
    <div className="wo-grid">
      <section className="card card--pad" aria-labelledby="cost-materials">
        <h2 id="cost-materials" className="section-title">
          Materials
        </h2>
        {b.material_costs.length === 0 ? (
          <p className="muted">No materials on this order.</p>
        ) : (
          <div className="wo-scroll">
            <table className="table table--compact" aria-label="Material costs">
              <thead>
                <tr>
                  <th scope="col">Component</th>
                  <th scope="col" className="align-right">
                    Used
                  </th>
                  <th scope="col" className="align-right">
                    Unit cost
                  </th>
                  <th scope="col" className="align-right">
                    Estimated
                  </th>
                  <th scope="col" className="align-right">
                    Actual
                  </th>
                </tr>
              </thead>
              <tbody>
                {b.material_costs.map((m, i) => (
                  <tr key={`${m.component_id}-${m.operation_id ?? 'order'}-${i}`}>
                    <td>
                      <div className="cell-stack">
                        <span className="cell-strong">{m.component_sku ?? `#${m.component_id}`}</span>
                        {m.component_name && <span className="cell-sub">{m.component_name}</span>}
                      </div>
                    </td>
                    <td className="align-right num">
                      <div className="cell-stack">
                        <span>{formatQty(m.quantity, m.unit)}</span>
                        <span className="cell-sub">of {formatQty(m.quantity_required, m.unit)}</span>
                      </div>
                    </td>
                    <td className="align-right num">{formatMoney(m.unit_cost)}</td>
                    <td className="align-right num">{formatMoney(m.estimated_cost)}</td>
                    <td className="align-right num cell-strong">{formatMoney(m.total_cost)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <section className="card card--pad" aria-labelledby="cost-operations">
        <h2 id="cost-operations" className="section-title">
          Machine &amp; labour
        </h2>
        {b.labor_costs.length === 0 ? (
          <p className="muted">No operations on this order.</p>
        ) : (
          <div className="wo-scroll">
            <table className="table table--compact" aria-label="Operation costs">
              <thead>
                <tr>
                  <th scope="col">Operation</th>
                  <th scope="col" className="align-right">
                    Minutes
                  </th>
                  <th scope="col" className="align-right">
                    Rate
                  </th>
                  <th scope="col" className="align-right">
                    Estimated
                  </th>
                  <th scope="col" className="align-right">
                    Actual
                  </th>
                </tr>
              </thead>
              <tbody>
                {b.labor_costs.map((l) => (
                  <tr key={l.operation_id}>
                    <td className="cell-strong">{l.operation}</td>
                    <td className="align-right num">
                      <div className="cell-stack">
                        <span>{formatQty(l.minutes)}</span>
                        <span className="cell-sub">of {formatQty(l.planned_minutes)} planned</span>
                      </div>
                    </td>
                    <td className="align-right num">{formatMoney(l.hourly_rate)}/h</td>
                    <td className="align-right num">{formatMoney(l.estimated_cost)}</td>
                    <td className="align-right num cell-strong">{formatMoney(l.cost)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </div>
  );
}

/** The Cost tab: estimate against actual as a chart and a variance table, the lines behind them, and re-estimating. */
export function CostTab({ order }: { order: ProductionOrder }) {
  const toast = useToast();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const cost = useQuery({ queryKey: queryKeys.production.cost(order.id), queryFn: ({ signal }) => productionApi.costBreakdown(order.id, signal) });
  const estimate = useMutation({
    mutationFn: () => productionApi.estimateCost(order.id),
    onSuccess: async (b) => {
      setError(null);
      setConfirming(false);
      queryClient.setQueryData(queryKeys.production.cost(order.id), b);
      toast.success('Estimate updated', `${order.code} is estimated at ${formatMoney(b.estimated.total)}.`);
      // The order keeps the estimate too (its header figures).
      await queryClient.invalidateQueries({ queryKey: queryKeys.production.all });
    },
    onError: (err) => {
      setConfirming(false);
      setError(errorMessage(err));
    },
  });
  const canEstimate = order.operations.length > 0;
  const reestimate = (
    <Button
      icon={<RefreshCw size={16} />}
      onClick={() => setConfirming(true)}
      disabled={!canEstimate}
      title={canEstimate ? undefined : 'Operations come from the routing on release; the estimate needs them.'}
    >
      Re-estimate
    </Button>
  );
  const confirm = (
    <ConfirmDialog
      open={confirming}
      title={`Re-estimate ${order.code}?`}
      message="The estimate is worked out again from the plan (the materials at their current cost and each operation's planned minutes at its work center's rate) and replaces the stored one. The actual cost does not change."
      confirmLabel="Re-estimate"
      destructive={false}
      busy={estimate.isPending}
      onConfirm={() => estimate.mutate()}
      onCancel={() => setConfirming(false)}
    />
  );

  if (cost.isPending)
    return (
      <section className="card card--pad" aria-label="Cost" aria-busy="true">
        <Skeleton width="30%" height={18} />
        <Skeleton width="100%" height={240} />
      </section>
    );
  if (cost.isError)
    return (
      <section className="card" aria-label="Cost">
        <ErrorState error={cost.error} onRetry={() => void cost.refetch()} />
      </section>
    );
  const b = cost.data;
  if (costIsEmpty(b))
    return (
      <section className="card" aria-label="Cost">
        <FormError message={error} />
        <EmptyState
          icon={<Calculator size={22} />}
          title="No cost known yet"
          description={
            <>
              {canEstimate
                ? 'Nothing has been costed or spent on this order yet. Estimate it from its materials and operations.'
                : 'Its materials and operations are copied from the BOM and routing when it is released; the cost is worked out from them.'}
              {Number(b.estimated.total) > 0 && <> The estimate stored so far is {formatMoney(b.estimated.total)}.</>}
            </>
          }
          action={canEstimate ? reestimate : undefined}
        />
        {confirm}
      </section>
    );

  const rows = costRows(b);
  const total = rows[2];
  return (
    <div className="cost-tab" aria-label="Cost" role="region">
      <section className="card card--pad" aria-labelledby="cost-title">
        <div className="cost-head">
          <div>
            <h2 id="cost-title" className="section-title">
              Estimated vs actual
            </h2>
            <p className="muted cost-head__hint">Actual is the best known cost: what was issued and worked so far, and the plan for what is still to do. The estimate is the one stored on the order.</p>
          </div>
          {reestimate}
        </div>
        <FormError message={error} />
        <dl className="stat-row stat-row--compact" aria-label="Cost summary">
          <div className="stat">
            <dt>Estimated</dt>
            <dd>{formatMoney(total.estimated)}</dd>
          </div>
          <div className="stat">
            <dt>Actual</dt>
            <dd>{formatMoney(total.actual)}</dd>
          </div>
          <div className="stat">
            <dt>Variance</dt>
            <dd>
              <Variance value={total.variance} />
            </dd>
          </div>
          <div className="stat">
            <dt>Actual per unit</dt>
            <dd>{formatMoney(b.summary.unit_cost)}</dd>
          </div>
        </dl>
        <div className="cost-body">
          <div className="cost-body__chart">
            <ul className="plan-legend" aria-hidden="true">
              <li>
                <span className="plan-swatch" style={{ background: COST_COLORS.estimated }} />
                Estimated
              </li>
              <li>
                <span className="plan-swatch" style={{ background: COST_COLORS.actual }} />
                Actual
              </li>
            </ul>
            <Suspense fallback={<Skeleton width="100%" height={260} />}>
              <CostChart rows={rows} label={chartLabel(order.code, rows)} />
            </Suspense>
          </div>
          <div className="wo-scroll">
            <table className="table cost-table" aria-label="Cost variance">
              <thead>
                <tr>
                  <th scope="col">Cost</th>
                  <th scope="col" className="align-right">
                    Estimated
                  </th>
                  <th scope="col" className="align-right">
                    Actual
                  </th>
                  <th scope="col" className="align-right">
                    Variance
                  </th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <tr key={r.key} className={r.key === 'total' ? 'cost-table__total' : undefined}>
                    <th scope="row">{r.label}</th>
                    <td className="align-right num">{formatMoney(r.estimated)}</td>
                    <td className="align-right num">{formatMoney(r.actual)}</td>
                    <td className="align-right num">
                      <div className="cell-stack">
                        <Variance value={r.variance} />
                        <span className="cell-sub">
                          <Variance value={r.variance} percent={r.percent} />
                        </span>
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      </section>
      <CostTables b={b} />
      {confirm}
    </div>
  );
}
