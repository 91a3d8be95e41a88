import { useMemo, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CheckCircle2, ChevronDown, ChevronRight, Copy, Power, Search, ShieldCheck, Trash2, X } from 'lucide-react';
import { errorMessage } from '../../api/errors';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { Modal } from '../../components/Modal';
import { Badge, ErrorState, Skeleton } from '../../components/States';
import { useToast } from '../../components/Toast';
import { formatMoney, formatQty, toNumber } from '../../lib/format';
import { bomApi, type Bom, type BomValidation, type ExplosionRow } from './bomApi';
import { buildBomTree, expandableKeys, shortageOf, visibleNodes } from './bomTree';
import { queryKeys } from '../../api/queryKeys';

interface Props {
  bomId: number | null;
  onClose: () => void;
  /** Opens another BOM (a new copy, a where-used row). */
  onOpen: (id: number) => void;
}

/** One BOM: its facts, the multi-level tree, where a component is used, and its actions. */
export function BomDetailModal({ bomId, onClose, onOpen }: Props) {
  const open = bomId !== null;
  const queryClient = useQueryClient();
  const toast = useToast();
  const [expanded, setExpanded] = useState<Set<string>>(new Set());
  const [whereUsed, setWhereUsed] = useState<{ id: number; sku: string } | null>(null);
  const [check, setCheck] = useState<BomValidation | null>(null);
  const [deleting, setDeleting] = useState(false);

  const detail = useQuery({ queryKey: queryKeys.bom.detail(bomId), queryFn: ({ signal }) => bomApi.get(bomId!, signal), enabled: open });
  const explosion = useQuery({ queryKey: queryKeys.bom.explode(bomId), queryFn: ({ signal }) => bomApi.explode(bomId!, signal), enabled: open });
  const used = useQuery({
    queryKey: queryKeys.bom.whereUsed(whereUsed?.id),
    queryFn: ({ signal }) => bomApi.whereUsed(whereUsed!.id, signal),
    enabled: whereUsed !== null,
  });
  const tree = useMemo(() => buildBomTree(explosion.data?.lines ?? []), [explosion.data]);
  const scrapByLine = useMemo(() => new Map((detail.data?.lines ?? []).map((l) => [l.id, l.scrap_factor])), [detail.data]);

  const close = () => {
    setExpanded(new Set());
    setWhereUsed(null);
    setCheck(null);
    onClose();
  };
  const refresh = () => queryClient.invalidateQueries({ queryKey: queryKeys.bom.all });

  const copy = useMutation({
    mutationFn: (b: Bom) => bomApi.copy(b.id),
    onSuccess: async (b) => {
      toast.success('New version created', `${b.code} (version ${b.version}) is a copy; activate it when it is ready.`);
      await refresh();
      setCheck(null);
      onOpen(b.id);
    },
    onError: (err) => toast.error('The BOM was not copied', errorMessage(err)),
  });
  const activate = useMutation({
    mutationFn: (b: Bom) => bomApi.update(b.id, { active: true }),
    onSuccess: async (b) => {
      toast.success('Version activated', `${b.code} is now the active BOM of ${b.product_sku}.`);
      await refresh();
    },
    onError: (err) => toast.error('The version was not activated', errorMessage(err)),
  });
  const validate = useMutation({
    mutationFn: (b: Bom) => bomApi.validate(b.id),
    onSuccess: (r) => setCheck(r),
    onError: (err) => toast.error('The BOM could not be checked', errorMessage(err)),
  });
  const remove = useMutation({
    mutationFn: (b: Bom) => bomApi.remove(b.id),
    onSuccess: async (_, b) => {
      setDeleting(false);
      toast.success('BOM deleted', `${b.code} and its lines are gone.`);
      close();
      await refresh();
    },
    onError: (err) => {
      setDeleting(false);
      toast.error('The BOM was not deleted', errorMessage(err));
    },
  });

  const bom = detail.data;
  const toggle = (key: string) =>
    setExpanded((prev) => {
      const next = new Set(prev);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });
  const allKeys = expandableKeys(tree);
  const shortages = (explosion.data?.lines ?? []).filter((r) => shortageOf(r) > 0).length;

  const renderRow = (node: ReturnType<typeof visibleNodes<ExplosionRow>>[number]) => {
    const r = node.row;
    const short = shortageOf(r);
    const hasKids = node.children.length > 0;
    const isOpen = expanded.has(node.key);
    const scrap = node.depth === 0 ? scrapByLine.get(r.line_id) : undefined;
    return (
      <tr key={node.key} className={[short > 0 ? 'is-short' : '', node.depth > 0 ? 'is-sub' : ''].filter(Boolean).join(' ') || undefined} aria-level={node.depth + 1}>
        <td>
          <div className="bom-tree__name" style={{ paddingLeft: node.depth * 22 }}>
            {hasKids ? (
              <button
                type="button"
                className="bom-tree__toggle"
                aria-expanded={isOpen}
                aria-label={`${isOpen ? 'Collapse' : 'Expand'} ${r.component_sku}`}
                onClick={() => toggle(node.key)}
              >
                {isOpen ? <ChevronDown size={16} /> : <ChevronRight size={16} />}
              </button>
            ) : (
              <span className="bom-tree__spacer" />
            )}
            <div className="cell-stack">
              <span className="cell-strong">{r.component_name}</span>
              <span className="cell-sub mono">
                {r.component_sku}
                {r.has_bom && ' · has BOM'}
                {r.consume_stage === 'shipping' && ' · at shipping'}
                {r.is_cost_only && ' · cost only'}
              </span>
            </div>
          </div>
        </td>
        <td className="align-right">
          <div className="cell-stack">
            <span className="num">{formatQty(r.extended_quantity, r.component_unit)}</span>
            <span className="cell-sub num">{formatQty(r.quantity_per, r.unit)} each</span>
          </div>
        </td>
        <td className="align-right num">{scrap !== undefined && scrap !== null && toNumber(scrap) ? `${toNumber(scrap)} %` : '—'}</td>
        <td className="align-right">
          <div className="cell-stack">
            <span className="num">{formatMoney(r.extended_cost)}</span>
            <span className="cell-sub num">@ {formatMoney(r.unit_cost)}</span>
          </div>
        </td>
        <td className="align-right num">{formatQty(r.inventory_available, r.component_unit)}</td>
        <td className="align-right num">
          {short > 0 ? <span className="shortage">Short {formatQty(short, r.component_unit)}</span> : <Badge tone="success">OK</Badge>}
        </td>
        <td className="align-right">
          <button
            type="button"
            className="icon-btn icon-btn--sm"
            aria-label={`Where is ${r.component_sku} used`}
            title="Where used"
            onClick={() => setWhereUsed({ id: r.component_id, sku: r.component_sku })}
          >
            <Search size={15} />
          </button>
        </td>
      </tr>
    );
  };

  return (
    <>
      <Modal
        open={open && !deleting}
        onClose={close}
        size="lg"
        title={bom ? `${bom.code} · ${bom.product_name}` : 'Bill of materials'}
        description={bom ? `Version ${bom.version}${bom.revision ? `, revision ${bom.revision}` : ''} of ${bom.product_sku}` : undefined}
      >
        {detail.isPending ? (
          <div className="bom-detail" aria-busy="true">
            <Skeleton height={60} />
            <Skeleton height={160} />
          </div>
        ) : detail.isError ? (
          <ErrorState error={detail.error} onRetry={() => void detail.refetch()} compact />
        ) : bom ? (
          <div className="bom-detail">
            <dl className="bom-detail__facts">
              <div>
                <dt>Status</dt>
                <dd>{bom.active ? <Badge tone="success">Active</Badge> : <Badge>Inactive</Badge>}</dd>
              </div>
              <div>
                <dt>Material cost</dt>
                <dd>{formatMoney(bom.material_cost)}</dd>
              </div>
              <div>
                <dt>Process cost</dt>
                <dd>{formatMoney(bom.process_cost)}</dd>
              </div>
              <div>
                <dt>Total cost per unit</dt>
                <dd data-testid="bom-total-cost">{formatMoney(bom.total_cost)}</dd>
              </div>
            </dl>
            <div className="bom-detail__actions">
              <Button size="sm" icon={<ShieldCheck size={14} />} loading={validate.isPending} onClick={() => validate.mutate(bom)}>
                Validate
              </Button>
              <Button size="sm" icon={<Copy size={14} />} loading={copy.isPending} onClick={() => copy.mutate(bom)}>
                Copy as new version
              </Button>
              {!bom.active && (
                <Button size="sm" icon={<Power size={14} />} loading={activate.isPending} onClick={() => activate.mutate(bom)}>
                  Activate this version
                </Button>
              )}
              <Button size="sm" variant="danger" icon={<Trash2 size={14} />} onClick={() => setDeleting(true)}>
                Delete
              </Button>
            </div>
            {bom.cost_error && (
              <div className="alert alert--error" role="alert">
                <div>{bom.cost_error}</div>
              </div>
            )}
            {check && (
              <div className={`alert ${check.is_valid ? (check.warnings.length ? 'alert--warning' : 'alert--success') : 'alert--error'}`} role="status" data-testid="bom-validation">
                <CheckCircle2 size={18} className="alert__icon" aria-hidden="true" />
                <div>
                  <strong className="alert__title">{check.is_valid ? 'This BOM is valid' : 'This BOM has errors'}</strong>
                  {check.errors.length + check.warnings.length > 0 ? (
                    <ul className="bom-check">
                      {check.errors.map((m) => (
                        <li key={`e${m}`}>Error: {m}</li>
                      ))}
                      {check.warnings.map((m) => (
                        <li key={`w${m}`}>Warning: {m}</li>
                      ))}
                    </ul>
                  ) : (
                    <span>No errors and no warnings, at every level.</span>
                  )}
                </div>
              </div>
            )}
            <div className="toolbar">
              <strong>Structure</strong>
              {explosion.data && (
                <span className="muted small">
                  {explosion.data.lines.length} line{explosion.data.lines.length === 1 ? '' : 's'} over {explosion.data.max_level} level
                  {explosion.data.max_level === 1 ? '' : 's'}
                  {shortages > 0 && ` · ${shortages} short`}
                </span>
              )}
              {allKeys.length > 0 && (
                <Button size="sm" variant="ghost" onClick={() => setExpanded(expanded.size >= allKeys.length ? new Set() : new Set(allKeys))}>
                  {expanded.size >= allKeys.length ? 'Collapse all' : 'Expand all'}
                </Button>
              )}
            </div>
            {explosion.isPending ? (
              <Skeleton height={120} />
            ) : explosion.isError ? (
              <ErrorState error={explosion.error} onRetry={() => void explosion.refetch()} compact />
            ) : tree.length === 0 ? (
              <p className="muted">This BOM has no lines yet.</p>
            ) : (
              <div className="bom-tree-wrap">
                <table className="table table--compact bom-tree" aria-label="BOM structure">
                  <thead>
                    <tr>
                      <th scope="col">Component</th>
                      <th scope="col" className="align-right">Quantity</th>
                      <th scope="col" className="align-right">Scrap</th>
                      <th scope="col" className="align-right">Cost</th>
                      <th scope="col" className="align-right">Available</th>
                      <th scope="col" className="align-right">Stock</th>
                      <th scope="col">
                        <span className="sr-only">Where used</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>{visibleNodes(tree, expanded).map(renderRow)}</tbody>
                  <tfoot>
                    <tr>
                      <td colSpan={3} className="align-right">
                        <strong>Total per unit, process included</strong>
                      </td>
                      <td className="align-right num">
                        <strong>{formatMoney(explosion.data?.total_cost)}</strong>
                      </td>
                      <td colSpan={3} />
                    </tr>
                  </tfoot>
                </table>
              </div>
            )}
            {whereUsed && (
              <section className="where-used" aria-label={`Where ${whereUsed.sku} is used`} data-testid="where-used">
                <div className="where-used__title">
                  <span>Where {whereUsed.sku} is used</span>
                  <button type="button" className="icon-btn icon-btn--sm" aria-label="Close where used" onClick={() => setWhereUsed(null)}>
                    <X size={15} />
                  </button>
                </div>
                {used.isPending ? (
                  <Skeleton height={40} />
                ) : used.isError ? (
                  <ErrorState error={used.error} onRetry={() => void used.refetch()} compact />
                ) : used.data.length === 0 ? (
                  <p className="muted small">{whereUsed.sku} is not a component of any BOM.</p>
                ) : (
                  <table className="table table--compact">
                    <thead>
                      <tr>
                        <th scope="col">BOM</th>
                        <th scope="col">Makes</th>
                        <th scope="col" className="align-right">Quantity</th>
                        <th scope="col">Status</th>
                      </tr>
                    </thead>
                    <tbody>
                      {used.data.map((u) => (
                        <tr key={`${u.bom_id}-${u.line_id}`}>
                          <td>
                            <button type="button" className="link" onClick={() => onOpen(u.bom_id)}>
                              {u.bom_code}
                            </button>{' '}
                            <span className="muted small">v{u.version}</span>
                          </td>
                          <td>
                            {u.product_name} <span className="muted small mono">{u.product_sku}</span>
                          </td>
                          <td className="align-right num">{formatQty(u.quantity, u.unit)}</td>
                          <td>{u.active ? <Badge tone="success">Active</Badge> : <Badge>Inactive</Badge>}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                )}
              </section>
            )}
          </div>
        ) : null}
      </Modal>
      <ConfirmDialog
        open={deleting && bom !== undefined}
        title="Delete this BOM?"
        message={
          <>
            <strong>{bom?.code}</strong> (version {bom?.version}) and its {bom?.line_count} line{bom?.line_count === 1 ? '' : 's'} will be deleted. This cannot be
            undone.
          </>
        }
        confirmLabel="Delete BOM"
        busy={remove.isPending}
        onConfirm={() => bom && remove.mutate(bom)}
        onCancel={() => setDeleting(false)}
      />
    </>
  );
}
