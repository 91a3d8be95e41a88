import { useMemo, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { errorMessage } from '../../api/errors';
import { Button } from '../../components/Button';
import { FormError } from '../../components/Field';
import { Modal } from '../../components/Modal';
import { useToast } from '../../components/Toast';
import { formatQty } from '../../lib/format';
import { parseWeights, purchasingApi, type PurchaseOrder } from './purchasingApi';

interface Row {
  quantity: string;
  lot: string;
  spools: string;
}

/** Receives a purchase order: quantity, lot number and spool weights per line. One
 *  Idempotency-Key per opened dialog, so a double click posts once. */
export function ReceiveDialog({ po, onClose }: { po: PurchaseOrder | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const open = po !== null;
  const lines = useMemo(() => (po?.lines ?? []).filter((l) => Number(l.quantity_remaining) > 0), [po]);
  const [rows, setRows] = useState<Record<number, Row>>({});
  const [error, setError] = useState<string | null>(null);
  const [idem, setIdem] = useState(() => purchasingApi.newKey());
  const row = (id: number, remaining: string): Row => rows[id] ?? { quantity: String(Number(remaining)), lot: '', spools: '' };
  const set = (id: number, remaining: string, patch: Partial<Row>) => setRows((r) => ({ ...r, [id]: { ...row(id, remaining), ...patch } }));
  const close = () => {
    setRows({});
    setError(null);
    setIdem(purchasingApi.newKey());
    onClose();
  };
  const save = useMutation({
    mutationFn: () => {
      const body = lines
        .map((l) => {
          const r = row(l.id, l.quantity_remaining);
          const weights = parseWeights(r.spools) ?? [];
          return {
            line_id: l.id,
            quantity_received: r.quantity.trim(),
            lot_number: r.lot.trim() || undefined,
            spools: weights.map((w) => ({ weight_g: String(w) })),
          };
        })
        .filter((l) => Number(l.quantity_received) > 0);
      return purchasingApi.receive(po!.id, { lines: body }, idem);
    },
    onSuccess: async (r) => {
      toast.success('Received', `${r.po_number}: ${r.lines_received} line(s), ${r.spools_created.length} spool(s), lots ${r.material_lots_created.join(', ') || 'none'}.`);
      await queryClient.invalidateQueries({ queryKey: ['purchase-orders'] });
      await queryClient.invalidateQueries({ queryKey: ['purchasing'] });
      close();
    },
    onError: (err) => setError(errorMessage(err)),
  });
  const invalid = lines.some((l) => {
    const r = row(l.id, l.quantity_remaining);
    return !/^\d+(\.\d{1,4})?$/.test(r.quantity.trim()) || parseWeights(r.spools) === null;
  });
  return (
    <Modal
      open={open}
      onClose={close}
      size="lg"
      title={`Receive ${po?.po_number ?? ''}`}
      description="Quantities are in each line's purchase unit; spool weights in grams, separated by commas."
      footer={
        <>
          <Button variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button variant="primary" onClick={() => save.mutate()} loading={save.isPending} disabled={invalid || lines.length === 0}>
            Receive
          </Button>
        </>
      }
    >
      <FormError message={error} />
      {lines.length === 0 ? (
        <p className="muted">Every line is received.</p>
      ) : (
        <table className="table table--compact" aria-label="Lines to receive">
          <thead>
            <tr>
              <th scope="col">Item</th>
              <th scope="col">Remaining</th>
              <th scope="col">Receive</th>
              <th scope="col">Lot number</th>
              <th scope="col">Spools (g)</th>
            </tr>
          </thead>
          <tbody>
            {lines.map((l) => {
              const r = row(l.id, l.quantity_remaining);
              return (
                <tr key={l.id}>
                  <td>
                    <span className="mono">{l.product_sku}</span>
                  </td>
                  <td className="num">{formatQty(l.quantity_remaining, l.purchase_unit)}</td>
                  <td>
                    <input className="input" aria-label={`Quantity of ${l.product_sku}`} inputMode="decimal" value={r.quantity} onChange={(e) => set(l.id, l.quantity_remaining, { quantity: e.target.value })} />
                  </td>
                  <td>
                    <input className="input" aria-label={`Lot number of ${l.product_sku}`} placeholder="Automatic" value={r.lot} onChange={(e) => set(l.id, l.quantity_remaining, { lot: e.target.value })} />
                  </td>
                  <td>
                    <input className="input" aria-label={`Spool weights of ${l.product_sku}`} placeholder="1000, 1000" value={r.spools} onChange={(e) => set(l.id, l.quantity_remaining, { spools: e.target.value })} />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </Modal>
  );
}
