import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { AlertTriangle, ArrowLeftRight, ArrowRight, CheckCircle2, Download, Plus } from 'lucide-react';
import { inventoryApi } from '../../api/endpoints';
import { errorMessage } from '../../api/errors';
import type { InventoryTransaction, InventoryTransactionList, InventoryTransactionQuery } from '../../api/model';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DataTable, type Column } from '../../components/DataTable';
import { DownloadLink } from '../../components/DownloadLink';
import { PageHeader } from '../../components/PageHeader';
import { Badge } from '../../components/States';
import { useToast } from '../../components/Toast';
import { formatDateTime, formatMoney, formatQty, humanize, toNumber } from '../../lib/format';
import { useServerList } from '../../lib/useServerList';
import { TransactionFormModal } from './TransactionFormModal';
import { isTransactionType, needsApproval, TYPE_FILTER_OPTIONS, typeLabel, typeTone } from './transactionOptions';
import { queryKeys } from '../../api/queryKeys';

const FILTERS = ['type', 'location', 'approval'] as const;

type Filters = Record<(typeof FILTERS)[number], string>;

/** Where a movement came from; manual entries carry the `adjustment` reference type. */
function referenceLabel(r: InventoryTransaction): string {
  if (!r.reference_type) return '—';
  if (r.reference_type === 'adjustment' && !r.reference_id) return 'Manual entry';
  return `${humanize(r.reference_type)}${r.reference_id ? ` #${r.reference_id}` : ''}`;
}

function queryFor(filters: Record<string, string>, search: string | undefined): Omit<InventoryTransactionQuery, 'limit' | 'offset'> {
  const f = filters as Filters;
  return {
    search,
    transaction_type: isTransactionType(f.type) ? f.type : undefined,
    location_id: f.location ? Number(f.location) : undefined,
    pending_approval: f.approval === 'pending' ? true : undefined,
  };
}

export function TransactionsPage() {
  const list = useServerList({
    area: 'inventory',
    filters: FILTERS,
    fetch: (r, signal) => inventoryApi.transactions({ ...queryFor(r.filters, r.search), limit: r.limit, offset: r.offset }, signal),
    // A bare array: no total, so the pager offers "next" while pages are full.
    select: (rows: InventoryTransactionList) => ({ rows }),
  });
  const { table } = list;
  const queryClient = useQueryClient();
  const toast = useToast();
  const [creating, setCreating] = useState(false);
  const [approving, setApproving] = useState<InventoryTransaction | null>(null);
  const locations = useQuery({ queryKey: queryKeys.inventory.locations(), queryFn: ({ signal }) => inventoryApi.locations(signal), staleTime: 60_000 });
  const pending = useQuery({
    queryKey: queryKeys.inventory.pendingApproval(),
    queryFn: ({ signal }) => inventoryApi.transactions({ pending_approval: true, limit: 100, offset: 0 }, signal),
  });
  const pendingCount = pending.data?.length ?? 0;

  const approve = useMutation({
    mutationFn: (t: InventoryTransaction) => inventoryApi.approveNegative(t.id),
    onSuccess: async (t) => {
      setApproving(null);
      toast.success('Transaction approved', `${typeLabel(t.transaction_type)} of ${t.product_sku} at ${t.location_name} is approved.`);
      await queryClient.invalidateQueries({ queryKey: queryKeys.inventory.all });
    },
    onError: (err) => {
      setApproving(null);
      toast.error('The transaction was not approved', errorMessage(err));
    },
  });

  const columns: Column<InventoryTransaction>[] = [
    {
      key: 'created_at',
      header: 'Date',
      shrink: true,
      render: (r) => (
        <div className="cell-stack">
          <span>{formatDateTime(r.created_at)}</span>
          <span className="cell-sub mono">#{r.id}</span>
        </div>
      ),
    },
    {
      key: 'transaction_type',
      header: 'Type',
      shrink: true,
      render: (r) => (
        <div className="cell-stack cell-stack--start">
          <Badge tone={typeTone(r.transaction_type)}>{typeLabel(r.transaction_type)}</Badge>
          {r.to_location_id !== null && <span className="cell-sub">{r.transaction_type === 'issue' ? 'Transfer out' : 'Transfer in'}</span>}
          {needsApproval(r) ? <Badge tone="danger">Below zero</Badge> : r.approved_at ? <Badge tone="success">Approved</Badge> : null}
        </div>
      ),
    },
    {
      key: 'item',
      header: 'Item',
      render: (r) => (
        <div className="cell-stack">
          <span className="cell-strong">{r.product_name}</span>
          <span className="cell-sub mono">{r.product_sku}</span>
        </div>
      ),
    },
    {
      key: 'location',
      header: 'Location',
      render: (r) =>
        r.to_location_name && r.to_location_id !== r.location_id ? (
          <span className="cell-inline cell-inline--wrap">
            <span>{r.location_name}</span>
            <ArrowRight size={13} aria-label="to" />
            <span>{r.to_location_name}</span>
          </span>
        ) : (
          r.location_name
        ),
    },
    {
      key: 'quantity',
      header: 'Quantity',
      align: 'right',
      shrink: true,
      render: (r) => {
        const n = toNumber(r.quantity) ?? 0;
        return <span className={`num qty${n < 0 ? ' qty--out' : ' qty--in'}`}>{formatQty(r.quantity, r.unit)}</span>;
      },
    },
    {
      key: 'total_cost',
      header: 'Value',
      align: 'right',
      shrink: true,
      render: (r) => (
        <div className="cell-stack">
          <span className="num">{formatMoney(r.total_cost)}</span>
          {r.cost_per_unit !== null && <span className="cell-sub num">@ {formatMoney(r.cost_per_unit)}</span>}
        </div>
      ),
    },
    {
      key: 'reference',
      header: 'Reference',
      hideOnTablet: true,
      render: (r) => (
        <div className="cell-stack">
          <span>{referenceLabel(r)}</span>
          {(r.reason || r.lot_number || r.notes) && (
            <span className="cell-sub">{[r.reason && humanize(r.reason), r.lot_number && `Lot ${r.lot_number}`, r.notes].filter(Boolean).join(' · ')}</span>
          )}
        </div>
      ),
    },
    {
      key: 'actions',
      header: 'Actions',
      align: 'right',
      shrink: true,
      render: (r) =>
        needsApproval(r) ? (
          <Button size="sm" variant="secondary" icon={<CheckCircle2 size={14} />} onClick={() => setApproving(r)} aria-label={`Approve transaction ${r.id}`}>
            Approve
          </Button>
        ) : null,
    },
  ];

  const csvUrl = inventoryApi.transactionsCsvUrl(queryFor(table.filters, table.search || undefined));
  const showPending = table.filters.approval === 'pending';

  return (
    <div className="page">
      <PageHeader
        title="Inventory Transactions"
        description="The ledger of every stock movement: receipts, issues, transfers, adjustments, consumption and scrap."
        actions={
          <>
            <DownloadLink url={csvUrl} filename="inventory-transactions.csv" className="btn btn--secondary btn--md" aria-label="Export CSV">
              <Download size={16} aria-hidden="true" />
              <span className="btn__label">Export CSV</span>
            </DownloadLink>
            <Button variant="primary" icon={<Plus size={16} />} onClick={() => setCreating(true)}>
              New transaction
            </Button>
          </>
        }
      />
      {pendingCount > 0 && !showPending && (
        <div className="alert alert--warning" role="status">
          <AlertTriangle size={18} className="alert__icon" aria-hidden="true" />
          <div>
            <strong className="alert__title">
              {pendingCount === 1 ? '1 movement took stock below zero' : `${pendingCount} movements took stock below zero`}
            </strong>
            <span>Review and approve them, or correct the stock with a receipt or adjustment.</span>
          </div>
          <Button size="sm" onClick={() => table.setFilter('approval', 'pending')}>
            Show them
          </Button>
        </div>
      )}
      <DataTable
        caption="Inventory transactions"
        columns={columns}
        {...list.tableProps}
        rowKey={(r) => r.id}
        searchPlaceholder="Search by item SKU or name"
        searchLabel="Search transactions"
        filters={
          <>
            <select className="input input--select" aria-label="Transaction type" value={table.filters.type ?? ''} onChange={(e) => table.setFilter('type', e.target.value)}>
              <option value="">All types</option>
              {TYPE_FILTER_OPTIONS.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
            <select className="input input--select" aria-label="Location" value={table.filters.location ?? ''} onChange={(e) => table.setFilter('location', e.target.value)}>
              <option value="">All locations</option>
              {(locations.data ?? []).map((l) => (
                <option key={l.id} value={String(l.id)}>
                  {l.code} · {l.name}
                </option>
              ))}
            </select>
            <select className="input input--select" aria-label="Approval" value={showPending ? 'pending' : ''} onChange={(e) => table.setFilter('approval', e.target.value)}>
              <option value="">All movements</option>
              <option value="pending">Needs approval</option>
            </select>
          </>
        }
        empty={{
          icon: <ArrowLeftRight size={22} />,
          title: 'No stock movements yet',
          description: 'Receipts, issues, transfers and adjustments appear here as soon as they are posted.',
          action: (
            <Button variant="primary" icon={<Plus size={16} />} onClick={() => setCreating(true)}>
              New transaction
            </Button>
          ),
        }}
      />
      <TransactionFormModal open={creating} onClose={() => setCreating(false)} />
      <ConfirmDialog
        open={approving !== null}
        title="Approve this negative stock?"
        message={
          <>
            {approving && (
              <>
                {typeLabel(approving.transaction_type)} of <strong>{formatQty(approving.quantity, approving.unit)}</strong> of{' '}
                <strong>{approving.product_sku}</strong> at {approving.location_name} took stock below zero.
              </>
            )}{' '}
            Approving records that you accept it; the stock stays negative until more is received or counted.
          </>
        }
        confirmLabel="Approve"
        destructive={false}
        busy={approve.isPending}
        onConfirm={() => approving && approve.mutate(approving)}
        onCancel={() => setApproving(null)}
      />
    </div>
  );
}
