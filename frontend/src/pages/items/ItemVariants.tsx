import { useEffect, useRef, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { CheckCircle2, Layers, Plus, Route as RouteIcon, Trash2 } from 'lucide-react';
import { errorMessage } from '../../api/errors';
import { queryKeys } from '../../api/queryKeys';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { FormError } from '../../components/Field';
import { Badge, EmptyState, ErrorState, Skeleton } from '../../components/States';
import { useToast } from '../../components/Toast';
import { formatMoney, formatQty } from '../../lib/format';
import {
  cellState,
  comboKey,
  createdSummary,
  groupState,
  matrixLayout,
  selectableKeys,
  selectionsOf,
  swatchColor,
  toggleGroup,
  variantsApi,
  variantsWord,
  type MatrixLayout,
  type Variant,
  type VariantCreated,
  type VariantMatrix,
} from './variantsApi';
import { SyncRoutingButton } from './VariantSync';
import './variants.css';

/** Where an item opens (its edit dialog on the Items page). */
export const itemPath = (id: number) => `/admin/items?item=${id}`;
/** The routing editor with this product chosen. */
export const routingPath = (productId: number) => `/admin/manufacturing?tab=routings&product=${productId}`;

/** A colour's little square; no hex shows a hatched one. */
export function Swatch({ hex, label }: { hex: string | null | undefined; label?: string }) {
  const color = swatchColor(hex);
  return <span className={`variant-swatch${color ? '' : ' variant-swatch--none'}`} style={color ? { background: color } : undefined} title={label} aria-hidden="true" />;
}

/** A checkbox that can show "some of its group are ticked". */
function GroupCheckbox({ state, label, disabled, onChange }: { state: 'none' | 'some' | 'all'; label: string; disabled?: boolean; onChange: () => void }) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = state === 'some';
  }, [state]);
  return <input ref={ref} type="checkbox" aria-label={label} checked={state === 'all'} disabled={disabled} onChange={onChange} />;
}

/**
 * An item's variants: the material x colour matrix (tick cells, make them in one request),
 * the variants it has (delete one), and its routing synced to them after a preview.
 */
export function ItemVariants({ itemId }: { itemId: number }) {
  const matrix = useQuery({
    queryKey: queryKeys.items.variantMatrix(itemId),
    queryFn: ({ signal }) => variantsApi.matrix(itemId, signal),
    staleTime: 0,
  });
  if (matrix.isPending) {
    return (
      <div className="variants" aria-busy="true">
        <Skeleton height={120} />
        <Skeleton height={80} />
      </div>
    );
  }
  if (matrix.error) return <ErrorState compact error={matrix.error} onRetry={() => void matrix.refetch()} />;
  const m = matrix.data;
  // An item with no variable material and no variants has only the way to get there to show.
  const started = m.variants.length > 0 || m.template.variable_material_ids.length > 0;
  return (
    <div className="variants">
      <div className="variants__head">
        <div className="cell-stack">
          <span className="cell-inline">
            <strong>{m.template.is_template ? 'Template' : 'Not a template yet'}</strong>
            <Badge tone={m.variants.length > 0 ? 'info' : 'neutral'}>{variantsWord(m.variants.length)}</Badge>
          </span>
          <span className="cell-sub">
            Each variant is {m.template.sku} in one material and colour: its own SKU, with the BOM and routing copied and the variable material swapped.
          </span>
        </div>
        {started && <SyncRoutingButton itemId={itemId} sku={m.template.sku} variantCount={m.variants.length} />}
      </div>
      <MatrixSection matrix={m} itemId={itemId} />
      {started && <VariantList itemId={itemId} />}
    </div>
  );
}

// ---------------------------------------------------------------- the matrix

function MatrixSection({ matrix, itemId }: { matrix: VariantMatrix; itemId: number }) {
  if (matrix.template.variable_material_ids.length === 0) {
    return (
      <section className="variants__section" aria-label="Variant matrix">
        <EmptyState
          compact
          icon={<RouteIcon size={22} />}
          title="No variable material yet"
          description={
            <>
              To make variants, mark a material of this item’s routing as <strong>Variable</strong> (the filament of its print step, say). Its
              material type’s colours then become the variants you can make here.
            </>
          }
          action={
            <Link className="btn btn--secondary btn--sm" to={routingPath(itemId)}>
              <RouteIcon size={14} aria-hidden="true" />
              <span className="btn__label">Open the routing editor</span>
            </Link>
          }
        />
      </section>
    );
  }
  if (matrix.available_combos.length === 0) {
    return (
      <section className="variants__section" aria-label="Variant matrix">
        <EmptyState
          compact
          icon={<Layers size={22} />}
          title="No colours for the variable material"
          description="The material type of the routing’s variable material has no colours yet: add materials in that type and colour, then come back."
        />
      </section>
    );
  }
  return <MatrixGrid matrix={matrix} itemId={itemId} />;
}

function MatrixGrid({ matrix, itemId }: { matrix: VariantMatrix; itemId: number }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const layout: MatrixLayout = matrixLayout(matrix.available_combos);
  const [ticked, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [result, setResult] = useState<VariantCreated[] | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const everything = selectableKeys(matrix.available_combos);
  // Only what can still be made counts (a cell made or gone since it was ticked drops out).
  const selected: ReadonlySet<string> = new Set([...ticked].filter((k) => everything.includes(k)));
  const rowKeys = (typeId: number) => selectableKeys(layout.colors.map((c) => layout.cell(typeId, c.id)));
  const colKeys = (colorId: number) => selectableKeys(layout.types.map((t) => layout.cell(t.id, colorId)));
  const selections = selectionsOf(selected, layout);

  const create = useMutation({
    mutationFn: () => variantsApi.createMany(itemId, selections),
    onMutate: () => {
      setRefusal(null);
      setResult(null);
    },
    onSuccess: async (rows) => {
      setResult(rows);
      setSelected(new Set());
      const s = createdSummary(rows);
      toast.success(`${variantsWord(s.created.length)} created`, s.skipped.length > 0 ? `${s.skipped.length} skipped: they existed.` : undefined);
      await queryClient.invalidateQueries({ queryKey: queryKeys.items.all });
    },
    // One transaction: a refusal means nothing was made.
    onError: (err) => setRefusal(errorMessage(err)),
  });
  const busy = create.isPending;
  const toggle = (keys: string[]) => setSelected((prev) => toggleGroup(prev, keys));

  return (
    <section className="variants__section" aria-labelledby="variant-matrix-title">
      <div className="variants__bar">
        <h3 id="variant-matrix-title" className="section-subtitle">
          Material and colour matrix
        </h3>
        <div className="variants__legend" aria-hidden="true">
          <span>
            <CheckCircle2 size={13} className="text-success" /> made
          </span>
          <span>
            <span className="variants__legend-box" /> can be made
          </span>
          <span>
            <span className="variants__legend-box variants__legend-box--off" /> no material item
          </span>
        </div>
      </div>
      <div className="variant-matrix__frame">
        <table className="variant-matrix" aria-label="Variant matrix" aria-busy={busy || undefined}>
          <thead>
            <tr>
              <th scope="col" className="variant-matrix__corner">
                <label className="checkbox variant-matrix__all">
                  <GroupCheckbox state={groupState(selected, everything)} label="Select every available combination" disabled={busy || everything.length === 0} onChange={() => toggle(everything)} />
                  <span>All</span>
                </label>
              </th>
              {layout.colors.map((c) => (
                <th key={c.id} scope="col" className="variant-matrix__color">
                  <div className="variant-matrix__color-head">
                    <Swatch hex={c.hex} />
                    <span className="variant-matrix__color-name" title={c.code}>
                      {c.name}
                    </span>
                    <GroupCheckbox
                      state={groupState(selected, colKeys(c.id))}
                      label={`Select the ${c.name} column`}
                      disabled={busy || colKeys(c.id).length === 0}
                      onChange={() => toggle(colKeys(c.id))}
                    />
                  </div>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {layout.types.map((t) => (
              <tr key={t.id}>
                <th scope="row" className="variant-matrix__type">
                  <label className="checkbox">
                    <GroupCheckbox state={groupState(selected, rowKeys(t.id))} label={`Select the ${t.code} row`} disabled={busy || rowKeys(t.id).length === 0} onChange={() => toggle(rowKeys(t.id))} />
                    <span className="cell-stack">
                      <span className="cell-strong">{t.code}</span>
                      {t.name !== t.code && <span className="cell-sub">{t.name}</span>}
                    </span>
                  </label>
                </th>
                {layout.colors.map((c) => {
                  const combo = layout.cell(t.id, c.id);
                  if (!combo) {
                    return (
                      <td key={c.id} className="variant-cell variant-cell--none">
                        <span className="sr-only">{`${t.code} does not come in ${c.name}`}</span>
                      </td>
                    );
                  }
                  const state = cellState(combo);
                  const name = `${t.code} ${c.name}`;
                  if (state === 'exists') {
                    return (
                      <td key={c.id} className="variant-cell variant-cell--exists">
                        {combo.variant_id ? (
                          <Link to={itemPath(combo.variant_id)} className="variant-cell__link" aria-label={`${name}: made, open the variant`} title={`${name}: open the variant`}>
                            <CheckCircle2 size={16} aria-hidden="true" />
                          </Link>
                        ) : (
                          <CheckCircle2 size={16} aria-label={`${name}: made`} />
                        )}
                      </td>
                    );
                  }
                  if (state === 'unavailable') {
                    const why = `No material item is linked to ${name}: add one under Materials to make this variant.`;
                    return (
                      <td key={c.id} className="variant-cell variant-cell--off" title={why}>
                        <input type="checkbox" disabled aria-label={`${name}: no material item`} aria-description={why} />
                      </td>
                    );
                  }
                  const key = comboKey(t.id, c.id);
                  return (
                    <td key={c.id} className={`variant-cell${selected.has(key) ? ' is-selected' : ''}`}>
                      <input type="checkbox" aria-label={name} checked={selected.has(key)} disabled={busy} onChange={() => toggle([key])} />
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="variants__actions">
        <span className="muted" aria-live="polite">
          {selections.length > 0 ? `${selections.length} selected` : everything.length > 0 ? 'Tick the combinations to make.' : 'Every combination that can be made exists.'}
        </span>
        {selections.length > 0 && !busy && (
          <Button size="sm" variant="ghost" onClick={() => setSelected(new Set())}>
            Clear
          </Button>
        )}
        <Button variant="primary" icon={<Plus size={16} />} disabled={selections.length === 0} loading={busy} onClick={() => create.mutate()}>
          {busy ? `Creating ${variantsWord(selections.length)}…` : selections.length === 0 ? 'Create variants' : `Create ${variantsWord(selections.length)}`}
        </Button>
      </div>
      {busy && (
        <div className="variants__progress" role="status">
          <span className="variants__progress-bar" aria-hidden="true">
            <span />
          </span>
          <span>
            Creating {variantsWord(selections.length)} with their BOMs and routings, in one go: if one cannot be made, none are.
          </span>
        </div>
      )}
      <FormError title="No variants were made" message={refusal} />
      {result && <CreatedSummary rows={result} onClose={() => setResult(null)} />}
    </section>
  );
}

function CreatedSummary({ rows, onClose }: { rows: VariantCreated[]; onClose: () => void }) {
  const s = createdSummary(rows);
  return (
    <div className="alert alert--success variants__summary" role="status" aria-label="Variants created">
      <div>
        <strong className="alert__title">{s.text}</strong>
        {s.created.length > 0 && (
          <span>
            Made: <span className="mono">{s.created.map((r) => r.sku).join(', ')}</span>
          </span>
        )}
        {s.skipped.length > 0 && (
          <ul className="variants__skipped">
            {s.skipped.map((r) => (
              <li key={r.sku}>
                <span className="mono">{r.sku}</span>: {r.reason ?? 'skipped'}
              </li>
            ))}
          </ul>
        )}
      </div>
      <Button size="sm" variant="ghost" onClick={onClose}>
        Dismiss
      </Button>
    </div>
  );
}

// ---------------------------------------------------------------- the list

function VariantList({ itemId }: { itemId: number }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [deleting, setDeleting] = useState<Variant | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const list = useQuery({
    queryKey: queryKeys.items.variants(itemId),
    queryFn: ({ signal }) => variantsApi.list(itemId, signal),
    staleTime: 0,
  });
  const remove = useMutation({
    mutationFn: (v: Variant) => variantsApi.remove(itemId, v.id),
    onMutate: () => setRefusal(null),
    onSuccess: async (r) => {
      setDeleting(null);
      toast.success('Variant deleted', `${r.sku} is gone; ${variantsWord(r.remaining_variants)} left.`);
      await queryClient.invalidateQueries({ queryKey: queryKeys.items.all });
    },
    onError: (err, v) => {
      setDeleting(null);
      const why = errorMessage(err);
      setRefusal(why.includes(v.sku) ? why : `${v.sku}: ${why}`);
    },
  });
  const rows = list.data ?? [];
  return (
    <section className="variants__section" aria-labelledby="variant-list-title">
      <h3 id="variant-list-title" className="section-subtitle">
        Variants
      </h3>
      <FormError title="The variant was not deleted" message={refusal} />
      {list.isPending ? (
        <Skeleton height={60} />
      ) : list.error ? (
        <ErrorState compact error={list.error} onRetry={() => void list.refetch()} />
      ) : rows.length === 0 ? (
        <p className="muted">No variants yet: tick combinations in the matrix above and create them.</p>
      ) : (
        <div className="datatable__frame">
          <table className="table table--compact" aria-label="Variants">
            <thead>
              <tr>
                <th scope="col">Variant</th>
                <th scope="col" className="shrink">
                  Material
                </th>
                <th scope="col" className="align-right shrink hide-tablet">
                  Std cost
                </th>
                <th scope="col" className="align-right shrink">
                  Price
                </th>
                <th scope="col" className="align-right shrink">
                  On hand
                </th>
                <th scope="col" className="shrink">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((v) => (
                <tr key={v.id}>
                  <td>
                    <span className="cell-inline">
                      <Swatch hex={v.color_hex} />
                      <span className="cell-stack">
                        <Link to={itemPath(v.id)} className="mono variant-link">
                          {v.sku}
                        </Link>
                        <span className="cell-sub">{v.name}</span>
                      </span>
                      {!v.active && <Badge>Inactive</Badge>}
                    </span>
                  </td>
                  <td className="shrink">
                    <span className="mono">{[v.material_type_code, v.color_code].filter(Boolean).join(' · ') || '—'}</span>
                  </td>
                  <td className="align-right shrink num hide-tablet">{formatMoney(v.standard_cost)}</td>
                  <td className="align-right shrink num">{formatMoney(v.selling_price)}</td>
                  <td className="align-right shrink num">{formatQty(v.on_hand_qty)}</td>
                  <td className="shrink">
                    <button type="button" className="icon-btn icon-btn--sm icon-btn--danger" aria-label={`Delete ${v.sku}`} title="Delete" onClick={() => setDeleting(v)}>
                      <Trash2 size={15} />
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete ${deleting?.sku ?? 'this variant'}?`}
        message={
          <>
            <strong>{deleting?.sku}</strong> · {deleting?.name} is deleted with its BOM and routing. A variant with stock or orders can’t be
            deleted: deactivate it instead.
          </>
        }
        confirmLabel="Delete variant"
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onCancel={() => setDeleting(null)}
      />
    </section>
  );
}

