import { useState } from 'react';
import { Disc3, Plus, Scale } from 'lucide-react';
import { Button } from '../../components/Button';
import { DataTable, type Column } from '../../components/DataTable';
import { PageHeader } from '../../components/PageHeader';
import { Badge } from '../../components/States';
import { humanize } from '../../lib/format';
import { useServerList } from '../../lib/useServerList';
import { SPOOL_STATUSES, spoolApi, type Spool, type SpoolList, type SpoolStatus } from './spoolApi';
import { SpoolDetailModal } from './SpoolDetailModal';
import { SpoolFormModal } from './SpoolFormModal';
import { formatDate, statusTone } from './spoolOptions';
import { WeightBar } from './WeightBar';
import { WeightDialog } from './WeightDialog';
import './spools.css';

const FILTERS = ['status', 'low'] as const;
const isStatus = (v: string | undefined): v is SpoolStatus => SPOOL_STATUSES.includes(v as SpoolStatus);

export function SpoolsPage() {
  const list = useServerList({
    area: 'spools',
    filters: FILTERS,
    searchable: false,
    fetch: (r, signal) =>
      spoolApi.list(
        {
          limit: r.limit,
          offset: r.offset,
          status: isStatus(r.filters.status) ? r.filters.status : undefined,
          low_weight: r.filters.low === '1' ? true : undefined,
        },
        signal,
      ),
    select: (d: SpoolList) => ({ rows: d.items, total: d.total }),
  });
  const { table } = list;
  const [creating, setCreating] = useState(false);
  const [weighing, setWeighing] = useState<Spool | null>(null);
  const [openId, setOpenId] = useState<number | null>(null);

  const columns: Column<Spool>[] = [
    {
      key: 'spool_number',
      header: 'Spool',
      shrink: true,
      render: (r) => (
        <div className="cell-stack cell-stack--start">
          <span className="cell-strong mono">{r.spool_number}</span>
          <Badge tone={statusTone(r.status)}>{humanize(r.status)}</Badge>
        </div>
      ),
    },
    {
      key: 'product',
      header: 'Material',
      render: (r) => (
        <div className="cell-stack">
          <span className="cell-strong">{r.product_name ?? '—'}</span>
          <span className="cell-sub mono">{r.product_sku}</span>
        </div>
      ),
    },
    { key: 'weight', header: 'Remaining', render: (r) => <WeightBar spool={r} /> },
    {
      key: 'location',
      header: 'Location',
      hideOnTablet: true,
      render: (r) => (
        <div className="cell-stack">
          <span>{r.location_name ?? '—'}</span>
          {r.supplier_lot_number && <span className="cell-sub">Lot {r.supplier_lot_number}</span>}
        </div>
      ),
    },
    { key: 'received_date', header: 'Received', shrink: true, hideOnTablet: true, render: (r) => formatDate(r.received_date) },
    {
      key: 'actions',
      header: 'Actions',
      align: 'right',
      shrink: true,
      render: (r) => (
        <span onClick={(e) => e.stopPropagation()} onKeyDown={(e) => e.stopPropagation()} role="presentation">
          <Button size="sm" variant="secondary" icon={<Scale size={14} />} onClick={() => setWeighing(r)} aria-label={`Correct the weight of ${r.spool_number}`}>
            Weigh
          </Button>
        </span>
      ),
    },
  ];

  return (
    <div className="page">
      <PageHeader
        title="Material Spools"
        description="Every roll of filament: what is left on it, where it is, and what production took from it."
        actions={
          <Button variant="primary" icon={<Plus size={16} />} onClick={() => setCreating(true)}>
            New spool
          </Button>
        }
      />
      <DataTable
        caption="Material spools"
        columns={columns}
        {...list.tableProps}
        rowKey={(r) => r.id}
        onRowClick={(r) => setOpenId(r.id)}
        rowLabel={(r) => `Open spool ${r.spool_number}`}
        filters={
          <>
            <select className="input input--select" aria-label="Status" value={table.filters.status ?? ''} onChange={(e) => table.setFilter('status', e.target.value)}>
              <option value="">All statuses</option>
              {SPOOL_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {humanize(s)}
                </option>
              ))}
            </select>
            <label className="checkbox checkbox--inline">
              <input type="checkbox" checked={table.filters.low === '1'} onChange={(e) => table.setFilter('low', e.target.checked ? '1' : '')} />
              <span>Low only (under 10 %)</span>
            </label>
          </>
        }
        empty={{
          icon: <Disc3 size={22} />,
          title: 'No spools yet',
          description: 'Add the spools you receive to follow how much material is left on each.',
          action: (
            <Button variant="primary" icon={<Plus size={16} />} onClick={() => setCreating(true)}>
              New spool
            </Button>
          ),
        }}
      />
      <SpoolFormModal open={creating} onClose={() => setCreating(false)} />
      <WeightDialog spool={weighing} onClose={() => setWeighing(null)} />
      <SpoolDetailModal spoolId={openId} onClose={() => setOpenId(null)} />
    </div>
  );
}
