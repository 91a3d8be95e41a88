import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Plus, Trash2 } from 'lucide-react';
import { itemsApi } from '../../api/endpoints';
import { errorMessage } from '../../api/errors';
import { Button } from '../../components/Button';
import { FormError } from '../../components/Field';
import { Modal } from '../../components/Modal';
import { useToast } from '../../components/Toast';
import { PURCHASE_UNITS, purchasingApi } from './purchasingApi';
import { queryKeys } from '../../api/queryKeys';
import { useVendorOptions } from './vendorOptions';

interface LineDraft {
  product_id: string;
  quantity_ordered: string;
  unit_cost: string;
  purchase_unit: string;
}

const blank = (): LineDraft => ({ product_id: '', quantity_ordered: '1', unit_cost: '0', purchase_unit: '' });

/** Raises a draft purchase order: a vendor and its lines (quantity and cost in the purchase unit). */
export function PoFormModal({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: (id: number) => void }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const vendors = useVendorOptions(open);
  const items = useQuery({ queryKey: queryKeys.purchasing.itemOptions(), queryFn: ({ signal }) => itemsApi.list({ limit: 500 }, signal), enabled: open });
  const [vendor, setVendor] = useState('');
  const [expected, setExpected] = useState('');
  const [lines, setLines] = useState<LineDraft[]>([blank()]);
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    setVendor('');
    setExpected('');
    setLines([blank()]);
    setError(null);
    onClose();
  };
  const save = useMutation({
    mutationFn: () =>
      purchasingApi.create({
        vendor_id: Number(vendor),
        expected_date: expected || undefined,
        lines: lines.map((l) => ({
          product_id: Number(l.product_id),
          quantity_ordered: l.quantity_ordered.trim(),
          unit_cost: l.unit_cost.trim(),
          purchase_unit: l.purchase_unit || undefined,
        })),
      }),
    onSuccess: async (po) => {
      toast.success('Purchase order created', `${po.po_number} is a draft.`);
      await queryClient.invalidateQueries({ queryKey: queryKeys.purchaseOrders.all });
      close();
      onCreated(po.id);
    },
    onError: (err) => setError(errorMessage(err)),
  });
  const ready = vendor !== '' && lines.length > 0 && lines.every((l) => l.product_id !== '' && Number(l.quantity_ordered) > 0 && Number(l.unit_cost) >= 0);
  const patch = (i: number, p: Partial<LineDraft>) => setLines((ls) => ls.map((l, k) => (k === i ? { ...l, ...p } : l)));
  return (
    <Modal
      open={open}
      onClose={close}
      size="lg"
      title="New purchase order"
      description="It starts as a draft; place the order when the lines are right."
      footer={
        <>
          <Button variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button variant="primary" onClick={() => save.mutate()} loading={save.isPending} disabled={!ready}>
            Create draft
          </Button>
        </>
      }
    >
      <FormError message={error} />
      <div className="form">
        <label className="field">
          <span className="field__label">Vendor</span>
          <select className="input input--select" aria-label="Vendor" value={vendor} onChange={(e) => setVendor(e.target.value)}>
            <option value="">Choose a vendor</option>
            {vendors.options.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span className="field__label">Expected</span>
          <input className="input" type="date" aria-label="Expected date" value={expected} onChange={(e) => setExpected(e.target.value)} />
        </label>
        <table className="table table--compact" aria-label="New lines">
          <thead>
            <tr>
              <th scope="col">Item</th>
              <th scope="col">Quantity</th>
              <th scope="col">Unit</th>
              <th scope="col">Unit cost</th>
              <th scope="col">
                <span className="sr-only">Remove</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {lines.map((l, i) => (
              <tr key={i}>
                <td>
                  <select className="input input--select" aria-label={`Item of line ${i + 1}`} value={l.product_id} onChange={(e) => patch(i, { product_id: e.target.value })}>
                    <option value="">Choose an item</option>
                    {(items.data?.items ?? []).map((it) => (
                      <option key={it.id} value={it.id}>
                        {it.sku} · {it.name}
                      </option>
                    ))}
                  </select>
                </td>
                <td>
                  <input className="input" inputMode="decimal" aria-label={`Quantity of line ${i + 1}`} value={l.quantity_ordered} onChange={(e) => patch(i, { quantity_ordered: e.target.value })} />
                </td>
                <td>
                  <select className="input input--select" aria-label={`Unit of line ${i + 1}`} value={l.purchase_unit} onChange={(e) => patch(i, { purchase_unit: e.target.value })}>
                    {PURCHASE_UNITS.map((u) => (
                      <option key={u} value={u}>
                        {u || "Item's purchase unit"}
                      </option>
                    ))}
                  </select>
                </td>
                <td>
                  <input className="input" inputMode="decimal" aria-label={`Unit cost of line ${i + 1}`} value={l.unit_cost} onChange={(e) => patch(i, { unit_cost: e.target.value })} />
                </td>
                <td>
                  <Button size="sm" variant="secondary" icon={<Trash2 size={14} />} aria-label={`Remove line ${i + 1}`} onClick={() => setLines((ls) => ls.filter((_, k) => k !== i))} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <Button size="sm" variant="secondary" icon={<Plus size={14} />} onClick={() => setLines((ls) => [...ls, blank()])}>
          Add line
        </Button>
      </div>
    </Modal>
  );
}
