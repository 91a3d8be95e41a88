import { useQueryClient } from '@tanstack/react-query';
import { errorMessage } from '../../api/errors';
import { queryKeys } from '../../api/queryKeys';
import { SelectField, TextAreaField } from '../../components/Field';
import { FormDialog, useZodForm } from '../../components/FormDialog';
import { useToast } from '../../components/Toast';
import { formatQty } from '../../lib/format';
import { useVendorOptions } from '../purchasing/vendorOptions';
import {
  TYPE_LABEL,
  firmSchema,
  needsVendor,
  plannedCode,
  planningApi,
  releaseBatches,
  releaseSchema,
  type FirmValues,
  type PlannedOrder,
  type ReleaseBody,
  type ReleaseResult,
  type ReleaseValues,
} from './planningApi';

const itemOf = (o: PlannedOrder) => o.product_sku ?? `#${o.product_id}`;

/** Firms a planned order: later MRP runs keep it as it is. */
export function FirmDialog({ order, onClose }: { order: PlannedOrder | null; onClose: () => void }) {
  return order ? <FirmForm key={order.id} order={order} onClose={onClose} /> : null;
}

function FirmForm({ order, onClose }: { order: PlannedOrder; onClose: () => void }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const form = useZodForm(firmSchema, { defaultValues: { notes: order.notes ?? '' } satisfies FirmValues });
  const {
    register,
    formState: { errors },
  } = form;
  return (
    <FormDialog
      form={form}
      open
      onClose={onClose}
      title={`Firm ${plannedCode(order.id)}`}
      description={`${TYPE_LABEL[order.order_type]} ${formatQty(order.quantity)} × ${itemOf(order)}, needed by ${order.due_date}. Later MRP runs keep a firmed order instead of replacing it.`}
      id="planned-firm-form"
      label={`Firm ${plannedCode(order.id)}`}
      submitLabel="Firm order"
      errorTitle="The order was not firmed"
      submit={(body) => planningApi.firm(order.id, body)}
      onSuccess={async () => {
        toast.success('Planned order firmed', `${plannedCode(order.id)} (${itemOf(order)}) is kept by later runs.`);
        await queryClient.invalidateQueries({ queryKey: queryKeys.planning.all });
      }}
      fields={['notes']}
    >
      <TextAreaField label="Notes" placeholder="Why it is firmed, e.g. customer confirmed" error={errors.notes?.message} {...register('notes')} />
    </FormDialog>
  );
}

interface ReleaseDialogProps {
  /** The planned orders to release (one from its row, several from the selection); null: closed. */
  orders: PlannedOrder[] | null;
  vendorName: (id: number | null) => string | null;
  onClose: () => void;
  /** What was created (also after a partial bulk release). */
  onReleased: (results: ReleaseResult[]) => void;
}

/**
 * Releases planned orders: buys become draft purchase orders (one per vendor), makes draft
 * production orders. A buy without a planned vendor needs one chosen here.
 */
export function ReleaseDialog(props: ReleaseDialogProps) {
  return props.orders && props.orders.length > 0 ? <ReleaseForm key={props.orders.map((o) => o.id).join(',')} {...props} orders={props.orders} /> : null;
}

function ReleaseForm({ orders, vendorName, onClose, onReleased }: ReleaseDialogProps & { orders: PlannedOrder[] }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const single = orders.length === 1 ? orders[0]! : null;
  const buys = orders.filter((o) => o.order_type === 'purchase');
  const makes = orders.length - buys.length;
  const withoutVendor = orders.filter(needsVendor);
  // One buy: its vendor may be changed (required when none is planned). Several: a vendor only for those without one.
  const askVendor = single ? single.order_type === 'purchase' : withoutVendor.length > 0;
  const vendorRequired = withoutVendor.length > 0;
  const vendors = useVendorOptions(askVendor);
  const form = useZodForm<ReleaseValues, ReleaseBody>(releaseSchema(vendorRequired), {
    defaultValues: { vendor_id: single?.vendor_id ? String(single.vendor_id) : '', notes: '' },
  });
  const {
    register,
    formState: { errors },
  } = form;
  const invalidate = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.planning.all }),
      queryClient.invalidateQueries({ queryKey: queryKeys.purchaseOrders.all }),
      queryClient.invalidateQueries({ queryKey: queryKeys.purchasing.all }),
      queryClient.invalidateQueries({ queryKey: queryKeys.production.all }),
    ]);

  const submit = async (body: ReleaseBody): Promise<ReleaseResult[]> => {
    if (single) return [await planningApi.release(single.id, body)];
    const done: ReleaseResult[] = [];
    for (const batch of releaseBatches(orders, body.vendor_id, body.notes)) {
      try {
        done.push(...(await planningApi.releaseMany(batch)));
      } catch (err) {
        if (done.length === 0) throw err;
        // The first request went through: show what it created, and why the rest did not.
        onReleased(done);
        await invalidate();
        throw new Error(`${done.length} of ${orders.length} were released; the others were not: ${errorMessage(err)}`);
      }
    }
    return done;
  };

  const summary = single
    ? single.order_type === 'purchase'
      ? `Buy ${formatQty(single.quantity)} × ${itemOf(single)}: it becomes a line of a draft purchase order${single.vendor_id ? ` from ${vendorName(single.vendor_id) ?? 'its planned vendor'}` : ''}.`
      : `Make ${formatQty(single.quantity)} × ${itemOf(single)}: it becomes a draft production order.`
    : [
        buys.length ? `${buys.length} buy${buys.length === 1 ? ' becomes a line of a draft purchase order' : 's become draft purchase orders, one per vendor'}` : '',
        makes ? `${makes} make${makes === 1 ? ' becomes a draft production order' : 's become draft production orders'}` : '',
      ]
        .filter(Boolean)
        .join('; ') + '.';

  const options = [...vendors.options];
  if (single?.vendor_id && !options.some((o) => o.value === String(single.vendor_id))) {
    options.unshift({ value: String(single.vendor_id), label: vendorName(single.vendor_id) ?? `Vendor #${single.vendor_id}` });
  }

  return (
    <FormDialog
      form={form}
      open
      onClose={onClose}
      title={single ? `Release ${plannedCode(single.id)}` : `Release ${orders.length} planned orders`}
      description={summary}
      id="planned-release-form"
      label={single ? `Release ${plannedCode(single.id)}` : 'Release planned orders'}
      submitLabel={single ? 'Release' : `Release ${orders.length}`}
      errorTitle="Not released"
      lockWhilePending
      submit={submit}
      onSuccess={async (results) => {
        onReleased(results);
        const codes = [...new Set(results.map((r) => r.created_purchase_order_code ?? r.created_production_order_code).filter(Boolean))];
        toast.success(results.length === 1 ? 'Planned order released' : `${results.length} planned orders released`, codes.length ? `Created ${codes.join(', ')} as draft.` : undefined);
        await invalidate();
      }}
      fields={['vendor_id', 'notes']}
    >
      {askVendor && (
        <SelectField
          label={single ? 'Vendor' : `Vendor for the ${withoutVendor.length} buy${withoutVendor.length === 1 ? '' : 's'} without one`}
          required={vendorRequired}
          placeholder={vendors.query.isPending ? 'Loading vendors…' : 'Choose a vendor'}
          options={options}
          hint={
            vendorRequired
              ? 'No vendor is planned for this item yet; the purchase order goes to the vendor chosen here.'
              : single
                ? 'The planned vendor; choose another to buy elsewhere.'
                : undefined
          }
          error={errors.vendor_id?.message}
          {...register('vendor_id')}
        />
      )}
      {!single && withoutVendor.length > 0 && (
        <p className="muted">
          {withoutVendor.map((o) => `${plannedCode(o.id)} (${itemOf(o)})`).join(', ')} {withoutVendor.length === 1 ? 'has' : 'have'} no vendor. The others keep their planned vendor.
        </p>
      )}
      <TextAreaField label="Notes" placeholder="Notes for the orders created" error={errors.notes?.message} {...register('notes')} />
    </FormDialog>
  );
}
