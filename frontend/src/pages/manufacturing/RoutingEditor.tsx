import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { Plus, Route as RouteIcon } from 'lucide-react';
import { itemsApi } from '../../api/endpoints';
import { errorMessage } from '../../api/errors';
import { queryKeys } from '../../api/queryKeys';
import { Button } from '../../components/Button';
import { Badge, EmptyState, ErrorState, Skeleton } from '../../components/States';
import { useToast } from '../../components/Toast';
import { formatMoney, formatQty } from '../../lib/format';
import type { WorkCenter } from '../production/productionApi';
import { labourCost, routingApi, routingMinutes, type Routing } from './routingApi';
import { RoutingSteps } from './RoutingSteps';
import { TemplateActions } from './RoutingTemplates';
import './routing.css';

/** A routing's totals: its time (setup, then run with wait and move) and its cost. */
export function RoutingTotals({ routing }: { routing: Routing }) {
  const minutes = routingMinutes(routing);
  return (
    <div role="group" aria-label="Routing totals">
      <dl className="stat-row stat-row--compact routing-totals">
      <div className="stat">
        <dt>Steps</dt>
        <dd>{routing.operation_count}</dd>
      </div>
      <div className="stat">
        <dt>Setup</dt>
        <dd>{formatQty(minutes.setup)} min</dd>
      </div>
      <div className="stat">
        <dt>Run, wait and move</dt>
        <dd>{formatQty(minutes.run)} min</dd>
      </div>
      <div className="stat">
        <dt>Total time</dt>
        <dd data-testid="routing-total-time">{formatQty(minutes.total)} min</dd>
      </div>
      <div className="stat">
        <dt>Labour cost</dt>
        <dd>{formatMoney(labourCost(routing.operations))}</dd>
      </div>
      <div className="stat">
        <dt>Total cost</dt>
        <dd data-testid="routing-total-cost">{formatMoney(routing.total_cost)}</dd>
      </div>
    </dl>
    </div>
  );
}

/** Routings per product: pick a product, one of its versions, and edit that version's steps one by one. */
export function RoutingEditor({ workCenters }: { workCenters: WorkCenter[] }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  // `?product=12` opens on that product (the item dialog's Variants tab links here).
  const [params] = useSearchParams();
  const [productId, setProductId] = useState(() => (/^\d+$/.test(params.get('product') ?? '') ? (params.get('product') ?? '') : ''));
  const [chosen, setChosen] = useState<number | null>(null);
  const products = useQuery({
    queryKey: queryKeys.production.productOptions(),
    queryFn: ({ signal }) => itemsApi.list({ limit: 500, active_only: true, sort_by: 'sku' }, signal),
  });
  const pid = productId ? Number(productId) : undefined;
  const routings = useQuery({
    queryKey: queryKeys.production.routings(pid),
    queryFn: ({ signal }) => routingApi.ofProduct(pid!, signal),
    enabled: pid !== undefined,
  });
  const types = useQuery({
    queryKey: queryKeys.production.operationTypes(),
    queryFn: ({ signal }) => routingApi.operationTypes(signal),
    staleTime: 5 * 60_000,
  });
  const list = [...(routings.data ?? [])].sort((a, b) => b.version - a.version);
  const active = list.find((r) => r.active);
  const current = list.find((r) => r.id === chosen) ?? active ?? list[0];

  const invalidate = () => queryClient.invalidateQueries({ queryKey: queryKeys.production.routingsAll });
  const create = useMutation({
    mutationFn: (product: number) => routingApi.create({ product_id: product, operations: [] }),
    onSuccess: async (r) => {
      toast.success('Routing created', `${r.code} v${r.version}: add its steps.`);
      setChosen(r.id);
      await invalidate();
    },
    onError: (err) => toast.error('The routing was not created', errorMessage(err)),
  });
  const activate = useMutation({
    mutationFn: (r: Routing) => routingApi.update(r.id, { active: true }),
    onSuccess: async (r) => {
      toast.success('Routing activated', `${r.code} v${r.version} is the one production uses.`);
      await invalidate();
    },
    onError: (err) => toast.error('The routing was not activated', errorMessage(err)),
  });
  const templateActions = pid !== undefined && <TemplateActions productId={pid} active={active} onApplied={(a) => setChosen(a.routing_id)} />;

  return (
    <section className="card card--pad routing-editor" aria-labelledby="routings-title">
      <h2 id="routings-title" className="section-title">
        Routings
      </h2>
      <label className="field">
        <span className="field__label">Product</span>
        <select
          className="input input--select"
          aria-label="Product"
          value={productId}
          onChange={(e) => {
            setProductId(e.target.value);
            setChosen(null);
          }}
        >
          <option value="">{products.isPending ? 'Loading products…' : 'Choose a product'}</option>
          {(products.data?.items ?? [])
            .filter((i) => i.item_type !== 'service')
            .map((i) => (
              <option key={i.id} value={i.id}>
                {i.sku} · {i.name}
              </option>
            ))}
        </select>
      </label>
      {products.error && <ErrorState compact error={products.error} onRetry={() => void products.refetch()} />}
      {pid === undefined ? (
        <EmptyState compact icon={<RouteIcon size={22} />} title="Choose a product" description="Its routing is the ordered list of steps a production order goes through." />
      ) : routings.isPending ? (
        <div aria-busy="true" aria-label="Loading routings" className="routing-editor__loading">
          <Skeleton width="60%" />
          <Skeleton width="90%" />
          <Skeleton width="80%" />
        </div>
      ) : routings.error ? (
        <ErrorState compact error={routings.error} onRetry={() => void routings.refetch()} />
      ) : !current ? (
        <EmptyState
          compact
          icon={<RouteIcon size={22} />}
          title="No routing yet"
          description="Create an empty routing and add its steps, or apply a standard template."
          action={
            <div className="routing-editor__actions">
              <Button variant="primary" icon={<Plus size={16} />} loading={create.isPending} onClick={() => create.mutate(pid)}>
                Create routing
              </Button>
              {templateActions}
            </div>
          }
        />
      ) : (
        <>
          <div className="routing-editor__bar" role="group" aria-label="Versions">
            {list.map((r) => (
              <Button key={r.id} size="sm" variant={r.id === current.id ? 'primary' : 'secondary'} aria-pressed={r.id === current.id} onClick={() => setChosen(r.id)}>
                {r.code} v{r.version}
              </Button>
            ))}
            {current.active ? (
              <Badge tone="success">Active</Badge>
            ) : (
              <>
                <Badge>Inactive</Badge>
                <Button size="sm" loading={activate.isPending} onClick={() => activate.mutate(current)}>
                  Make active
                </Button>
              </>
            )}
          </div>
          <div className="routing-editor__head">
            <div className="cell-stack">
              <span className="cell-strong">{current.name}</span>
              <span className="cell-sub">
                {current.code} · revision {current.revision}
                {current.notes && ` · ${current.notes}`}
              </span>
            </div>
            <div className="routing-editor__actions">{templateActions}</div>
          </div>
          <RoutingTotals routing={current} />
          {types.error && <p className="text-danger">Operation types could not be loaded: {errorMessage(types.error)}</p>}
          <RoutingSteps key={current.id} routing={current} workCenters={workCenters} operationTypes={types.data ?? []} typesLoading={types.isPending} />
        </>
      )}
    </section>
  );
}
