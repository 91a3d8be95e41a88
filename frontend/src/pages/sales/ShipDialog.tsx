import { useState } from 'react';
import { TextField } from '../../components/Field';
import { FormDialog, useZodForm } from '../../components/FormDialog';
import { useToast } from '../../components/Toast';
import { salesApi, shipBody, shipSchema, type ShipForm } from './salesApi';
import { useSalesInvalidate } from './salesHooks';

const EMPTY_SHIP: ShipForm = { carrier: 'USPS', service: 'Priority', tracking_number: '' };

/** Ships an order: goods issued, COGS and the invoice posted, the order `shipped` (one transaction). */
export function ShipDialog({ order, open, onClose }: { order: { id: number; order_number: string } | null; open: boolean; onClose: () => void }) {
  const toast = useToast();
  const invalidate = useSalesInvalidate();
  const [idemKey, setIdemKey] = useState(salesApi.newKey);
  const form = useZodForm(shipSchema, { defaultValues: EMPTY_SHIP });
  const {
    register,
    formState: { errors },
  } = form;
  return (
    <FormDialog
      form={form}
      open={open}
      onClose={onClose}
      onReset={() => setIdemKey(salesApi.newKey())}
      title={`Ship ${order?.order_number ?? ''}`.trim()}
      description="Finished goods and packaging are issued, and the invoice is posted."
      id="ship-form"
      label="Ship order"
      submitLabel="Ship order"
      submit={(v) => salesApi.ship(order?.id ?? 0, shipBody(v), idemKey)}
      onSuccess={async (r) => {
        toast.success('Shipped', `${order?.order_number ?? 'The order'} left with ${r.carrier} ${r.service}, tracking ${r.tracking_number}.`);
        await invalidate();
      }}
      fields={['carrier', 'service', 'tracking_number']}
    >
      <div className="form__grid">
        <TextField label="Carrier" required error={errors.carrier?.message} {...register('carrier')} />
        <TextField label="Service" required error={errors.service?.message} {...register('service')} />
      </div>
      <TextField label="Tracking number" hint="Left empty, one is generated." error={errors.tracking_number?.message} {...register('tracking_number')} />
    </FormDialog>
  );
}
