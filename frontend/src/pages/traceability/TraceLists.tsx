import { useState } from 'react';
import { Link } from 'react-router';
import { Boxes, Fingerprint, Plus } from 'lucide-react';
import { Button } from '../../components/Button';
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
import { LotActions, NumberUnitsDialog, RecordLotDialog, SerialActions } from './TraceRecords';

/** SKU and name of a lot's or unit's item (the list routes name it). */
function ItemCell({ id, sku, name }: { id: number; sku: string | null; name: string | null }) {
  if (!sku) return <span className="mono">#{id}</span>;
  return (
    <div className="cell-stack cell-stack--start">
      <span className="mono">{sku}</span>
      {name && <span className="cell-sub">{name}</span>}
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
  { key: 'product_id', header: 'Item', shrink: true, render: (l) => <ItemCell id={l.product_id} sku={l.product_sku} name={l.product_name} /> },
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
          {formatQty(l.quantity_remaining ?? r.remaining)}
        </span>
      );
    },
  },
  { key: 'received_date', header: 'Received on', shrink: true, hideOnTablet: true, render: (l) => l.received_date },
  { key: 'expiration_date', header: 'Expires', shrink: true, hideOnTablet: true, render: (l) => l.expiration_date ?? '—' },
  { key: 'trace', header: 'Trace', shrink: true, render: (l) => <TraceLinks code={l.lot_number} /> },
  { key: 'actions', header: 'Actions', shrink: true, render: (l) => <LotActions lot={l} /> },
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
  { key: 'product_id', header: 'Item', shrink: true, render: (s) => <ItemCell id={s.product_id} sku={s.product_sku} name={s.product_name} /> },
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
  { key: 'actions', header: 'Actions', shrink: true, render: (s) => <SerialActions unit={s} /> },
];

/** Every material lot, newest first, server-paged, searchable by lot or vendor lot number. */
export function LotsSection() {
  const list = useServerList({
    area: 'traceability-lots',
    filters: ['status'],
    fetch: (r, signal) => traceListApi.lots({ limit: r.limit, offset: r.offset, search: r.search, status: r.filters.status }, signal),
    select: (d: MaterialLotPage) => ({ rows: d.items, total: d.total }),
  });
  const [recording, setRecording] = useState(false);
  return (
    <>
      <div className="trace-section">
        <div className="trace-toolbar">
          <p className="muted">Recording a lot here posts no stock; receive purchase orders to add stock.</p>
          <Button variant="primary" icon={<Plus size={16} />} onClick={() => setRecording(true)}>
            Record lot
          </Button>
        </div>
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
      <RecordLotDialog open={recording} onClose={() => setRecording(false)} />
    </>
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
  const [numbering, setNumbering] = useState(false);
  return (
    <>
      <div className="trace-section">
        <div className="trace-toolbar">
          <p className="muted">Number units of a serial-tracked item by hand, then move them through their statuses.</p>
          <Button variant="primary" icon={<Plus size={16} />} onClick={() => setNumbering(true)}>
            Number units
          </Button>
        </div>
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
      <NumberUnitsDialog open={numbering} onClose={() => setNumbering(false)} />
    </>
  );
}
