import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { zodResolver } from '@hookform/resolvers/zod';
import { useFieldArray, useForm } from 'react-hook-form';
import { ArrowDown, ArrowUp, Plus, Route as RouteIcon, Trash2 } from 'lucide-react';
import { itemsApi } from '../../api/endpoints';
import { Button } from '../../components/Button';
import { FormError, TextField } from '../../components/Field';
import { Badge, EmptyState, ErrorState, Skeleton } from '../../components/States';
import { useToast } from '../../components/Toast';
import { applyServerErrors } from '../../lib/forms';
import { formatQty } from '../../lib/format';
import { productionApi, routingBody, routingSchema, type Routing, type RoutingForm, type WorkCenter } from '../production/productionApi';
import { queryKeys } from '../../api/queryKeys';

const blankStep = (): RoutingForm['operations'][number] => ({ operation_code: '', operation_name: '', work_center_id: '', setup_minutes: '0', run_minutes: '0' });

function toForm(r: Routing | undefined): RoutingForm {
  if (!r) return { name: '', operations: [blankStep()] };
  return {
    name: r.name,
    operations: [...r.operations]
      .sort((a, b) => a.sequence - b.sequence)
      .map((o) => ({
        operation_code: o.operation_code,
        operation_name: o.operation_name,
        work_center_id: String(o.work_center_id),
        setup_minutes: String(Number(o.setup_minutes)),
        run_minutes: String(Number(o.run_minutes)),
      })),
  };
}

/** Total planned minutes of a routing's steps (setup plus run). */
export function totalMinutes(steps: { setup_minutes: string; run_minutes: string }[]): number {
  return steps.reduce((sum, s) => sum + (Number(s.setup_minutes) || 0) + (Number(s.run_minutes) || 0), 0);
}

function StepsForm({ productId, routing, workCenters }: { productId: number; routing: Routing | undefined; workCenters: WorkCenter[] }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [formError, setFormError] = useState<string | null>(null);
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors, isDirty },
  } = useForm<RoutingForm>({ resolver: zodResolver(routingSchema), values: toForm(routing) });
  const steps = useFieldArray({ control, name: 'operations' });
  const save = useMutation({
    mutationFn: ({ v, asNew }: { v: RoutingForm; asNew: boolean }) =>
      routing && !asNew ? productionApi.updateRouting(routing.id, routingBody(productId, v)) : productionApi.createRouting(routingBody(productId, v)),
    onSuccess: async (r) => {
      toast.success('Routing saved', `${r.code} v${r.version} has ${r.operations.length} operation${r.operations.length === 1 ? '' : 's'}.`);
      setFormError(null);
      await queryClient.invalidateQueries({ queryKey: queryKeys.production.routingsAll });
    },
    onError: (err) => setFormError(applyServerErrors(err, setError, ['name'])),
  });
  const submit = (asNew: boolean) =>
    handleSubmit((v) => {
      setFormError(null);
      save.mutate({ v, asNew });
    });
  return (
    <form className="form" aria-label="Routing" noValidate onSubmit={submit(false)}>
      <FormError message={formError} />
      <TextField label="Routing name" placeholder="Defaults to the product's name" error={errors.name?.message} {...register('name')} />
      <table className="table table--compact routing-steps" aria-label="Operations">
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">Code</th>
            <th scope="col">Operation</th>
            <th scope="col">Work center</th>
            <th scope="col">Setup (min)</th>
            <th scope="col">Run (min)</th>
            <th scope="col">
              <span className="sr-only">Move or remove</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {steps.fields.map((f, i) => {
            const e = errors.operations?.[i];
            return (
              <tr key={f.id}>
                <td className="num muted">{(i + 1) * 10}</td>
                <td>
                  <input className="input" aria-label={`Code of step ${i + 1}`} aria-invalid={e?.operation_code ? true : undefined} {...register(`operations.${i}.operation_code`)} />
                  {e?.operation_code && <p className="field__error">{e.operation_code.message}</p>}
                </td>
                <td>
                  <input className="input" aria-label={`Name of step ${i + 1}`} aria-invalid={e?.operation_name ? true : undefined} {...register(`operations.${i}.operation_name`)} />
                  {e?.operation_name && <p className="field__error">{e.operation_name.message}</p>}
                </td>
                <td>
                  <select className="input input--select" aria-label={`Work center of step ${i + 1}`} aria-invalid={e?.work_center_id ? true : undefined} {...register(`operations.${i}.work_center_id`)}>
                    <option value="">Choose</option>
                    {workCenters.map((w) => (
                      <option key={w.id} value={w.id}>
                        {w.code} · {w.name}
                      </option>
                    ))}
                  </select>
                  {e?.work_center_id && <p className="field__error">{e.work_center_id.message}</p>}
                </td>
                <td>
                  <input className="input" inputMode="decimal" aria-label={`Setup minutes of step ${i + 1}`} {...register(`operations.${i}.setup_minutes`)} />
                  {e?.setup_minutes && <p className="field__error">{e.setup_minutes.message}</p>}
                </td>
                <td>
                  <input className="input" inputMode="decimal" aria-label={`Run minutes of step ${i + 1}`} {...register(`operations.${i}.run_minutes`)} />
                  {e?.run_minutes && <p className="field__error">{e.run_minutes.message}</p>}
                </td>
                <td className="row-actions">
                  <Button size="sm" variant="ghost" icon={<ArrowUp size={14} />} aria-label={`Move step ${i + 1} up`} disabled={i === 0} onClick={() => steps.move(i, i - 1)} />
                  <Button size="sm" variant="ghost" icon={<ArrowDown size={14} />} aria-label={`Move step ${i + 1} down`} disabled={i === steps.fields.length - 1} onClick={() => steps.move(i, i + 1)} />
                  <Button size="sm" variant="ghost" icon={<Trash2 size={14} />} aria-label={`Remove step ${i + 1}`} onClick={() => steps.remove(i)} />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {errors.operations?.root?.message && <p className="field__error">{errors.operations.root.message}</p>}
      {errors.operations?.message && <p className="field__error">{errors.operations.message}</p>}
      <div className="form__row">
        <Button size="sm" icon={<Plus size={14} />} onClick={() => steps.append(blankStep())}>
          Add operation
        </Button>
        <span className="muted">{workCenters.length === 0 && 'Create a work center first.'}</span>
      </div>
      <div className="form__row form__row--end">
        {routing && (
          <Button onClick={submit(true)} loading={save.isPending && save.variables?.asNew}>
            Save as new version
          </Button>
        )}
        <Button variant="primary" type="submit" loading={save.isPending && !save.variables?.asNew} disabled={routing !== undefined && !isDirty}>
          {routing ? 'Save routing' : 'Create routing'}
        </Button>
      </div>
    </form>
  );
}

/** Routings per product: pick a product, see its versions, edit the steps of one. */
export function RoutingEditor({ workCenters }: { workCenters: WorkCenter[] }) {
  const [productId, setProductId] = useState('');
  const [chosen, setChosen] = useState<number | null>(null);
  const products = useQuery({
    queryKey: queryKeys.production.productOptions(),
    queryFn: ({ signal }) => itemsApi.list({ limit: 500, active_only: true, sort_by: 'sku' }, signal),
  });
  const pid = productId ? Number(productId) : undefined;
  const routings = useQuery({
    queryKey: queryKeys.production.routings(pid),
    queryFn: ({ signal }) => productionApi.routings(pid, signal),
    enabled: pid !== undefined,
  });
  const list = [...(routings.data ?? [])].sort((a, b) => b.version - a.version);
  const current = list.find((r) => r.id === chosen) ?? list.find((r) => r.active) ?? list[0];
  return (
    <section className="card card--pad" aria-labelledby="routings-title">
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
      {pid === undefined ? (
        <EmptyState compact icon={<RouteIcon size={22} />} title="Choose a product" description="Its routing is the ordered list of operations a production order goes through." />
      ) : routings.isPending ? (
        <div aria-busy="true">
          <Skeleton width="60%" />
        </div>
      ) : routings.error ? (
        <ErrorState compact error={routings.error} onRetry={() => void routings.refetch()} />
      ) : (
        <>
          {list.length > 0 && (
            <div className="form__row" role="group" aria-label="Versions">
              {list.map((r) => (
                <Button key={r.id} size="sm" variant={r.id === current?.id ? 'primary' : 'secondary'} onClick={() => setChosen(r.id)}>
                  {r.code} v{r.version}
                </Button>
              ))}
              {current?.active ? <Badge tone="success">Active</Badge> : <Badge>Inactive</Badge>}
              {current && <span className="muted">{formatQty(totalMinutes(current.operations))} min of setup and run per unit</span>}
            </div>
          )}
          {list.length === 0 && <p className="muted">No routing yet: add its operations and create it.</p>}
          <StepsForm key={`${pid}-${current?.id ?? 'new'}-${current?.updated_at ?? ''}`} productId={pid} routing={current} workCenters={workCenters} />
        </>
      )}
    </section>
  );
}
