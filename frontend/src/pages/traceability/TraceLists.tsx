import { createContext, useContext } from 'react';
import { Link } from 'react-router';
import { useQueries } from '@tanstack/react-query';
import { itemsApi } from '../../api/endpoints';
import { Boxes, Fingerprint } from 'lucide-react';
import { DataTable, type Column } from '../../components/DataTable';
import { Badge } from '../../components/States';
import { formatDateTime, formatQty, humanize } from '../../lib/format';
import { useServerList } from '../../lib/useServerList';
import {
  LOT_STATUSES,
  lotRemaining,
  lotTone,
  SERIAL_STATUSES,
  serialTone,
  traceHref,
  traceListApi,
  type MaterialLot,
  type MaterialLotPage,
  type SerialPage,
  type SerialUnit,
} from './traceApi';

/** SKU and name of the items on the page, by id (filled as they load). */
const ItemNames = createContext<ReadonlyMap<number, { sku: string; name: string }>>(new Map());

/** Looks up the distinct items of a page (a handful: lots and units of a few products). */
function useItemNames(ids: readonly number[]) {
  const distinct = [...new Set(ids)];
  const results = useQueries({
    queries: distinct.map((id) => ({ queryKey: ['items', 'detail', id], queryFn: () => itemsApi.get(id), staleTime: 5 * 60_000, retry: false })),
  });
  const map = new Map<number, { sku: string; name: string }>();
  results.forEach((r, i) => {
    if (r.data) map.set(distinct[i]!, { sku: r.data.sku, name: r.data.name });
  });
  return map;
}

function ItemCell({ id }: { id: number }) {
  const item = useContext(ItemNames).get(id);
  if (!item) return <span className="mono">#{id}</span>;
  return (
    <div className="cell-stack cell-stack--start">
      <span className="mono">{item.sku}</span>
      <span className="cell-sub">{item.name}</span>
    </div>
  );
}

/** "Forward" and "Backward" links that open a number in the trace view. */
function TraceLinks({ code }: { code: string }) {
  return (
    <div className="trace-list__links">
      <Link className="link" to={traceHref(code)} aria-label={`Trace ${code} forward`}>
        Where it went
      </Link>
      <Link className="link link--muted" to={traceHref(code, 'BACKWARD')} aria-label={`Trace ${code} backward`}>
        Made of
      </Link>
    </div>
  );
}

function StatusFilter({ label, value, values, onChange }: { label: string; value: string; values: readonly string[]; onChange: (v: string) => void }) {
  return (
    <select className="input input--select" aria-label={label} value={value} onChange={(e) => onChange(e.target.value)}>
      <option value="">Any status</option>
      {values.map((v) => (
        <option key={v} value={v}>
          {humanize(v)}
        </option>
      ))}
    </select>
  );
}

const lotColumns: Column<MaterialLot>[] = [
  {
    key: 'lot_number',
    header: 'Lot',
    render: (l) => (
      <div className="cell-stack cell-stack--start">
        <Link className="mono link" to={traceHref(l.lot_number)}>
          {l.lot_number}
        </Link>
        {l.vendor_lot_number && <span className="cell-sub">Vendor lot {l.vendor_lot_number}</span>}
      </div>
    ),
  },
  { key: 'product_id', header: 'Item', shrink: true, render: (l) => <ItemCell id={l.product_id} /> },
  {
    key: 'status',
    header: 'Status',
    shrink: true,
    render: (l) => (
      <div className="cell-stack cell-stack--start">
        <Badge tone={lotTone(l.status)}>{humanize(l.status)}</Badge>
        {l.inspection_status !== 'passed' && <span className="cell-sub">Inspection {humanize(l.inspection_status).toLowerCase()}</span>}
      </div>
    ),
  },
  { key: 'quantity_received', header: 'Received', align: 'right', shrink: true, render: (l) => <span className="num">{formatQty(l.quantity_received)}</span> },
  {
    key: 'remaining',
    header: 'Left',
    align: 'right',
    shrink: true,
    render: (l) => {
      const r = lotRemaining(l);
      return (
        <span className="num" title={`${Math.round(r.used * 100)}% used`}>
          {formatQty(r.remaining)}
        </span>
      );
    },
  },
  { key: 'received_date', header: 'Received on', shrink: true, hideOnTablet: true, render: (l) => l.received_date },
  { key: 'expiration_date', header: 'Expires', shrink: true, hideOnTablet: true, render: (l) => l.expiration_date ?? '—' },
  { key: 'trace', header: 'Trace', shrink: true, render: (l) => <TraceLinks code={l.lot_number} /> },
];

const serialColumns: Column<SerialUnit>[] = [
  {
    key: 'serial_number',
    header: 'Serial number',
    render: (s) => (
      <Link className="mono link" to={traceHref(s.serial_number)}>
        {s.serial_number}
      </Link>
    ),
  },
  { key: 'product_id', header: 'Item', shrink: true, render: (s) => <ItemCell id={s.product_id} /> },
  { key: 'status', header: 'Status', shrink: true, render: (s) => <Badge tone={serialTone(s.status)}>{humanize(s.status)}</Badge> },
  {
    key: 'qc_passed',
    header: 'QC',
    shrink: true,
    render: (s) => (s.qc_date ? <Badge tone={s.qc_passed ? 'success' : 'danger'}>{s.qc_passed ? 'Passed' : 'Failed'}</Badge> : <span className="muted">Not inspected</span>),
  },
  {
    key: 'orders',
    header: 'Orders',
    shrink: true,
    hideOnTablet: true,
    render: (s) => (
      <div className="cell-stack cell-stack--start">
        {s.production_order_id !== null ? (
          <Link className="link" to={`/admin/production/${s.production_order_id}`}>
            Work order #{s.production_order_id}
          </Link>
        ) : (
          <span className="muted">—</span>
        )}
        {s.sales_order_id !== null && (
          <Link className="link" to={`/admin/orders/${s.sales_order_id}`}>
            Sales order #{s.sales_order_id}
          </Link>
        )}
      </div>
    ),
  },
  {
    key: 'shipped_at',
    header: 'Shipped',
    shrink: true,
    render: (s) =>
      s.shipped_at ? (
        <div className="cell-stack cell-stack--start">
          <span>{formatDateTime(s.shipped_at)}</span>
          {s.tracking_number && <span className="cell-sub mono">{s.tracking_number}</span>}
        </div>
      ) : (
        <span className="muted">—</span>
      ),
  },
  { key: 'trace', header: 'Trace', shrink: true, render: (s) => <TraceLinks code={s.serial_number} /> },
];

/** Every material lot, newest first, server-paged, searchable by lot or vendor lot number. */
export function LotsSection() {
  const list = useServerList({
    area: 'traceability-lots',
    filters: ['status'],
    fetch: (r, signal) => traceListApi.lots({ limit: r.limit, offset: r.offset, search: r.search, status: r.filters.status }, signal),
    select: (d: MaterialLotPage) => ({ rows: d.items, total: d.total }),
  });
  const names = useItemNames(list.tableProps.rows?.map((l) => l.product_id) ?? []);
  return (
    <ItemNames.Provider value={names}>
      <div className="trace-section">
        <DataTable
          caption="Material lots"
          columns={lotColumns}
          rowKey={(l) => l.id}
          searchPlaceholder="Search lot or vendor lot number…"
          searchLabel="Search lots"
          filters={<StatusFilter label="Lot status" value={list.table.filters.status ?? ''} values={LOT_STATUSES} onChange={(v) => list.table.setFilter('status', v)} />}
          empty={{ title: 'No material lots yet', description: 'Lots are recorded when purchase orders are received with a lot number.', icon: <Boxes size={22} /> }}
          {...list.tableProps}
          sort={undefined}
          onSortChange={undefined}
        />
      </div>
    </ItemNames.Provider>
  );
}

/** Every finished unit with a serial number, newest first, server-paged, searchable. */
export function SerialsSection() {
  const list = useServerList({
    area: 'traceability-serials',
    filters: ['status'],
    fetch: (r, signal) => traceListApi.serials({ limit: r.limit, offset: r.offset, search: r.search, status: r.filters.status }, signal),
    select: (d: SerialPage) => ({ rows: d.items, total: d.total }),
  });
  const names = useItemNames(list.tableProps.rows?.map((s) => s.product_id) ?? []);
  return (
    <ItemNames.Provider value={names}>
      <div className="trace-section">
        <DataTable
          caption="Serial numbers"
          columns={serialColumns}
          rowKey={(s) => s.id}
          searchPlaceholder="Search serial, tracking number or SKU…"
          searchLabel="Search serial numbers"
          filters={<StatusFilter label="Unit status" value={list.table.filters.status ?? ''} values={SERIAL_STATUSES} onChange={(v) => list.table.setFilter('status', v)} />}
          empty={{ title: 'No serial numbers yet', description: 'Units get serial numbers when a work order of a serial-tracked item completes.', icon: <Fingerprint size={22} /> }}
          {...list.tableProps}
          sort={undefined}
          onSortChange={undefined}
        />
      </div>
    </ItemNames.Provider>
  );
}
