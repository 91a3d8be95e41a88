import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Controller, type Path } from 'react-hook-form';
import { inventoryApi } from '../../api/endpoints';
import { SelectField } from '../../components/Field';
import { FormDialog, useZodForm } from '../../components/FormDialog';
import { useToast } from '../../components/Toast';
import { formatQty } from '../../lib/format';
import { applyServerErrors } from '../../lib/forms';
import {
  defaultReceiveLocation,
  purchasingApi,
  receiveErrorsOnForm,
  receiveSchema,
  type PurchaseOrder,
  type ReceiveBody,
  type ReceiveValues,
} from './purchasingApi';
import { queryKeys } from '../../api/queryKeys';

/** Receives a purchase order: where it goes, and per line the quantity, lot numbers and
 *  spool weights. One Idempotency-Key per opened dialog, so a double click posts once. */
export function ReceiveDialog({ po, onClose }: { po: PurchaseOrder | null; onClose: () => void }) {
  return po ? <ReceiveForm key={po.id} po={po} onClose={onClose} /> : null;
}

function ReceiveForm({ po, onClose }: { po: PurchaseOrder; onClose: () => void }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  // The open lines as the dialog opened: the form's rows, whatever a refetch brings meanwhile.
  const [lines] = useState(() => po.lines.filter((l) => Number(l.quantity_remaining) > 0));
  const [idem] = useState(() => purchasingApi.newKey());
  const locations = useQuery({ queryKey: queryKeys.inventory.locations(), queryFn: ({ signal }) => inventoryApi.locations(signal), staleTime: 60_000 });
  const fallback = defaultReceiveLocation(locations.data ?? []);
  const form = useZodForm<ReceiveValues, ReceiveBody>(receiveSchema, {
    defaultValues: {
      location_id: '',
      lines: lines.map((l) => ({ line_id: l.id, quantity_received: String(Number(l.quantity_remaining)), lot_number: '', vendor_lot_number: '', spools: '' })),
    },
  });
  const {
    register,
    control,
    getValues,
    setError,
    formState: { errors },
  } = form;
  const locationOptions = (locations.data ?? []).map((l) => ({ value: String(l.id), label: `${l.code} · ${l.name}` }));
  return (
    <FormDialog
      form={form}
      open
      onClose={onClose}
      size="lg"
      title={`Receive ${po.po_number}`}
      description="Quantities are in each line's purchase unit; spool weights in grams, separated by commas."
      id="po-receive-form"
      label={`Receive ${po.po_number}`}
      submitLabel="Receive"
      submitDisabled={lines.length === 0}
      // Untouched, the picker shows the server's default: send it by name.
      submit={(body) => purchasingApi.receive(po.id, { ...body, location_id: body.location_id ?? fallback?.id ?? null }, idem)}
      onSuccess={async (r) => {
        toast.success('Received', `${r.po_number}: ${r.lines_received} line(s), ${r.spools_created.length} spool(s), lots ${r.material_lots_created.join(', ') || 'none'}.`);
        await queryClient.invalidateQueries({ queryKey: queryKeys.purchaseOrders.all });
        await queryClient.invalidateQueries({ queryKey: queryKeys.purchasing.all });
        await queryClient.invalidateQueries({ queryKey: queryKeys.inventory.all });
      }}
      serverError={(err) => {
        // The server numbers the lines it was sent (those with a quantity), the form every open line.
        const sent = getValues('lines').flatMap((l, i) => (Number(l.quantity_received) > 0 ? [i] : []));
        const fields: Path<ReceiveValues>[] = ['location_id'];
        lines.forEach((_, i) => fields.push(`lines.${i}.quantity_received`, `lines.${i}.lot_number`, `lines.${i}.vendor_lot_number`, `lines.${i}.spools`));
        return applyServerErrors(receiveErrorsOnForm(err, sent), setError, fields);
      }}
    >
      {lines.length === 0 ? (
        <p className="muted">Every line is received.</p>
      ) : (
        <>
          <Controller
            control={control}
            name="location_id"
            render={({ field }) => (
              <SelectField
                label="Receive into"
                hint={locations.isError ? 'The locations could not be loaded; the server puts the stock in its default warehouse.' : undefined}
                placeholder={locations.isPending ? 'Loading locations…' : fallback ? undefined : 'MAIN · Main Warehouse (created on receipt)'}
                options={locationOptions}
                error={errors.location_id?.message}
                {...field}
                value={field.value || (fallback ? String(fallback.id) : '')}
              />
            )}
          />
          <table className="table table--compact" aria-label="Lines to receive">
            <thead>
              <tr>
                <th scope="col">Item</th>
                <th scope="col">Remaining</th>
                <th scope="col">Receive</th>
                <th scope="col">Lot number</th>
                <th scope="col">Vendor lot</th>
                <th scope="col">Spools (g)</th>
              </tr>
            </thead>
            <tbody>
              {lines.map((l, i) => {
                const e = errors.lines?.[i];
                return (
                  <tr key={l.id}>
                    <td>
                      <span className="mono">{l.product_sku}</span>
                    </td>
                    <td className="num">{formatQty(l.quantity_remaining, l.purchase_unit)}</td>
                    <td>
                      <input className="input" aria-label={`Quantity of ${l.product_sku}`} inputMode="decimal" aria-invalid={e?.quantity_received ? true : undefined} {...register(`lines.${i}.quantity_received`)} />
                      {e?.quantity_received && <p className="field__error">{e.quantity_received.message}</p>}
                    </td>
                    <td>
                      <input className="input" aria-label={`Lot number of ${l.product_sku}`} placeholder="Automatic" aria-invalid={e?.lot_number ? true : undefined} {...register(`lines.${i}.lot_number`)} />
                      {e?.lot_number && <p className="field__error">{e.lot_number.message}</p>}
                    </td>
                    <td>
                      <input className="input" aria-label={`Vendor lot number of ${l.product_sku}`} placeholder="Optional" aria-invalid={e?.vendor_lot_number ? true : undefined} {...register(`lines.${i}.vendor_lot_number`)} />
                      {e?.vendor_lot_number && <p className="field__error">{e.vendor_lot_number.message}</p>}
                    </td>
                    <td>
                      <input className="input" aria-label={`Spool weights of ${l.product_sku}`} placeholder="1000, 1000" aria-invalid={e?.spools ? true : undefined} {...register(`lines.${i}.spools`)} />
                      {e?.spools && <p className="field__error">{e.spools.message}</p>}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          {errors.lines?.message && <p className="field__error">{errors.lines.message}</p>}
          {errors.lines?.root?.message && <p className="field__error">{errors.lines.root.message}</p>}
        </>
      )}
    </FormDialog>
  );
}
