import { useState } from 'react';
import { keepPreviousData, useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { ClipboardList, Pencil, Plus, Power, PowerOff } from 'lucide-react';
import { itemsApi } from '../../api/endpoints';
import { errorMessage } from '../../api/errors';
import { queryKeys } from '../../api/queryKeys';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DataTable, type Column } from '../../components/DataTable';
import { PageHeader } from '../../components/PageHeader';
import { Badge } from '../../components/States';
import { useToast } from '../../components/Toast';
import { clientPage, matches } from '../../lib/clientPage';
import { useTableState } from '../../lib/useTableState';
import { PlanEditor, useProductOptions } from './PlanEditor';
import { qualityApi, type QualityPlan } from './qualityApi';
import './quality.css';

/** Quality plans by code: their product, version, characteristics; created, edited and deactivated here. */
export function QualityPlansPage() {
  const queryClient = useQueryClient();
  const toast = useToast();
  const table = useTableState(['inactive']);
  const showInactive = table.filters.inactive === '1';
  const [editing, setEditing] = useState<{ plan: QualityPlan | null } | null>(null);
  const [deactivating, setDeactivating] = useState<QualityPlan | null>(null);
  const plans = useQuery({
    queryKey: queryKeys.quality.plans(showInactive),
    queryFn: ({ signal }) => qualityApi.plans(showInactive, signal),
    placeholderData: keepPreviousData,
  });
  // The SKU of each plan's product: from the product list, else one item at a time.
  const products = useProductOptions();
  const known = new Map((products.data?.items ?? []).map((i) => [i.id, i.sku]));
  const missing = [...new Set((plans.data ?? []).map((p) => p.product_id).filter((id): id is number => id !== null && products.isSuccess && !known.has(id)))];
  const extra = useQueries({
    queries: missing.map((id) => ({ queryKey: queryKeys.items.detail(id), queryFn: () => itemsApi.get(id), staleTime: 300_000 })),
  });
  for (const q of extra) if (q.data) known.set(q.data.id, q.data.sku);
  const sku = (p: QualityPlan) => (p.product_id === null ? null : (known.get(p.product_id) ?? `#${p.product_id}`));

  const invalidate = () => queryClient.invalidateQueries({ queryKey: queryKeys.quality.all });
  const deactivate = useMutation({
    mutationFn: (p: QualityPlan) => qualityApi.deactivatePlan(p.id),
    onSuccess: async (p) => {
      setDeactivating(null);
      toast.success('Plan deactivated', `${p.code} no longer seeds inspections.`);
      await invalidate();
    },
    onError: (err) => {
      setDeactivating(null);
      toast.error('The plan was not deactivated', errorMessage(err));
    },
  });
  const reactivate = useMutation({
    mutationFn: (p: QualityPlan) => qualityApi.updatePlan(p.id, { is_active: true }),
    onSuccess: async (p) => {
      toast.success('Plan activated', `${p.code} seeds inspections again.`);
      await invalidate();
    },
    onError: (err) => toast.error('The plan was not activated', errorMessage(err)),
  });

  const columns: Column<QualityPlan>[] = [
    { key: 'code', header: 'Code', shrink: true, render: (p) => <span className="mono cell-strong">{p.code}</span> },
    { key: 'name', header: 'Name', render: (p) => <span className="cell-strong">{p.name}</span> },
    { key: 'product', header: 'Product', render: (p) => (p.is_template ? <Badge tone="info">Template</Badge> : <span className="mono">{sku(p)}</span>) },
    { key: 'version', header: 'Version', shrink: true, render: (p) => `v${p.version} · rev ${p.revision}` },
    { key: 'characteristics', header: 'Characteristics', align: 'right', shrink: true, render: (p) => <span className="num">{p.characteristics.length}</span> },
    { key: 'is_active', header: 'Status', shrink: true, render: (p) => <Badge tone={p.is_active ? 'success' : 'neutral'}>{p.is_active ? 'Active' : 'Inactive'}</Badge> },
    {
      key: 'actions',
      header: 'Actions',
      shrink: true,
      align: 'right',
      render: (p) => (
        <span className="row-actions" onClick={(e) => e.stopPropagation()}>
          <Button size="sm" variant="ghost" icon={<Pencil size={14} />} aria-label={`Edit ${p.code}`} onClick={() => setEditing({ plan: p })} />
          {p.is_active ? (
            <Button size="sm" variant="ghost" icon={<PowerOff size={14} />} aria-label={`Deactivate ${p.code}`} onClick={() => setDeactivating(p)} />
          ) : (
            <Button
              size="sm"
              variant="ghost"
              icon={<Power size={14} />}
              aria-label={`Activate ${p.code}`}
              loading={reactivate.isPending && reactivate.variables?.id === p.id}
              onClick={() => reactivate.mutate(p)}
            />
          )}
        </span>
      ),
    },
  ];

  const rows = plans.data?.filter((p) => matches(table.search, p.code, p.name, sku(p)));
  return (
    <div className="page">
      <PageHeader
        title="Quality Plans"
        description="What is inspected on each product: measured characteristics with limits and attributes judged by eye. In full quality mode a product's active plan drives its inspections."
        actions={
          <Button variant="primary" icon={<Plus size={16} />} onClick={() => setEditing({ plan: null })}>
            New plan
          </Button>
        }
      />
      <DataTable
        caption="Quality plans"
        columns={columns}
        rows={clientPage(rows, table.page, table.pageSize)}
        total={rows?.length}
        rowKey={(p) => p.id}
        page={table.page}
        pageSize={table.pageSize}
        onPageChange={table.setPage}
        onPageSizeChange={table.setPageSize}
        search={table.search}
        onSearchChange={table.setSearch}
        searchLabel="Search quality plans"
        searchPlaceholder="Code, name or SKU…"
        filters={
          <label className="checkbox">
            <input type="checkbox" checked={showInactive} onChange={(e) => table.setFilter('inactive', e.target.checked ? '1' : '')} /> Show inactive
          </label>
        }
        filtered={Boolean(table.search) || showInactive}
        onClearFilters={table.clearAll}
        loading={plans.isPending}
        fetching={plans.isFetching}
        error={plans.error}
        onRetry={() => void plans.refetch()}
        onRowClick={(p) => setEditing({ plan: p })}
        rowLabel={(p) => `Edit ${p.code}`}
        empty={{
          icon: <ClipboardList size={22} />,
          title: 'No quality plans yet',
          description: 'A plan lists what to check on a product; in full mode its inspections follow it.',
          action: (
            <Button variant="primary" icon={<Plus size={16} />} onClick={() => setEditing({ plan: null })}>
              New plan
            </Button>
          ),
        }}
      />
      {editing && <PlanEditor key={editing.plan?.id ?? 'new'} open plan={editing.plan} onClose={() => setEditing(null)} />}
      <ConfirmDialog
        open={deactivating !== null}
        title={`Deactivate ${deactivating?.code ?? ''}?`}
        message="Its product's inspections are no longer seeded or checked from it. The plan is kept; activate it again any time."
        confirmLabel="Deactivate"
        busy={deactivate.isPending}
        onConfirm={() => deactivating && deactivate.mutate(deactivating)}
        onCancel={() => setDeactivating(null)}
      />
    </div>
  );
}
