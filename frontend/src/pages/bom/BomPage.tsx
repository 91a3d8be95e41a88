import { useState } from 'react';
import { Layers, Plus } from 'lucide-react';
import { Button } from '../../components/Button';
import { DataTable, type Column } from '../../components/DataTable';
import { PageHeader } from '../../components/PageHeader';
import { Badge } from '../../components/States';
import { formatMoney } from '../../lib/format';
import { pickSort, useServerList } from '../../lib/useServerList';
import { BOM_SORTS, bomApi, type BomList, type BomRow } from './bomApi';
import { BomDetailModal } from './BomDetailModal';
import { BomFormModal } from './BomFormModal';
import './bom.css';

const FILTERS = ['versions'] as const;

export function BomPage() {
  const list = useServerList({
    area: 'bom',
    filters: FILTERS,
    fetch: (r, signal) =>
      bomApi.list(
        {
          limit: r.limit,
          skip: r.offset,
          search: r.search,
          active_only: r.filters.versions !== 'all',
          sort_by: pickSort(BOM_SORTS, r.sort_by),
          sort_order: r.sort_order,
        },
        signal,
      ),
    // A bare array: no total, so the pager offers "next" while pages are full.
    select: (rows: BomList) => ({ rows }),
  });
  const { table } = list;
  const [creating, setCreating] = useState(false);
  const [openId, setOpenId] = useState<number | null>(null);

  const columns: Column<BomRow>[] = [
    {
      key: 'product_sku',
      header: 'Product',
      sortable: true,
      render: (r) => (
        <div className="cell-stack">
          <span className="cell-strong">{r.product_name}</span>
          <span className="cell-sub mono">{r.product_sku}</span>
        </div>
      ),
    },
    {
      key: 'code',
      header: 'Code',
      sortable: true,
      render: (r) => (
        <div className="cell-stack cell-stack--start">
          <span className="mono">{r.code}</span>
          {r.active ? <Badge tone="success">Active</Badge> : <Badge>Inactive</Badge>}
        </div>
      ),
    },
    { key: 'version', header: 'Version', sortable: true, shrink: true, align: 'right', render: (r) => `v${r.version}${r.revision ? ` · rev ${r.revision}` : ''}` },
    { key: 'line_count', header: 'Lines', shrink: true, align: 'right', render: (r) => <span className="num">{r.line_count}</span> },
    { key: 'material_cost', header: 'Material cost', sortable: true, shrink: true, align: 'right', render: (r) => <span className="num">{formatMoney(r.material_cost)}</span> },
    {
      key: 'total_cost',
      header: 'Total cost',
      shrink: true,
      align: 'right',
      render: (r) => (
        <div className="cell-stack">
          <span className="num cell-strong">{formatMoney(r.total_cost)}</span>
          {r.cost_error && <span className="cell-sub">{r.cost_error}</span>}
        </div>
      ),
    },
  ];

  return (
    <div className="page">
      <PageHeader
        title="Bill of Materials"
        description="What each product is made of, level by level, and what it costs to make."
        actions={
          <Button variant="primary" icon={<Plus size={16} />} onClick={() => setCreating(true)}>
            New BOM
          </Button>
        }
      />
      <DataTable
        caption="Bills of materials"
        columns={columns}
        {...list.tableProps}
        rowKey={(r) => r.id}
        onRowClick={(r) => setOpenId(r.id)}
        rowLabel={(r) => `Open ${r.code}`}
        searchPlaceholder="Search by product, SKU or BOM code"
        searchLabel="Search BOMs"
        filters={
          <select className="input input--select" aria-label="Versions" value={table.filters.versions ?? ''} onChange={(e) => table.setFilter('versions', e.target.value)}>
            <option value="">Active versions only</option>
            <option value="all">All versions</option>
          </select>
        }
        empty={{
          icon: <Layers size={22} />,
          title: 'No bills of materials yet',
          description: 'Describe what a product is made of to cost it and check stock before production.',
          action: (
            <Button variant="primary" icon={<Plus size={16} />} onClick={() => setCreating(true)}>
              New BOM
            </Button>
          ),
        }}
      />
      <BomFormModal
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(b) => {
          setCreating(false);
          setOpenId(b.id);
        }}
      />
      <BomDetailModal bomId={openId} onClose={() => setOpenId(null)} onOpen={setOpenId} />
    </div>
  );
}
