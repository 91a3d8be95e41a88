import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { SelectField, TextAreaField, TextField } from '../../components/Field';
import { FormDialog, useZodForm } from '../../components/FormDialog';
import { useToast } from '../../components/Toast';
import { humanize } from '../../lib/format';
import { PAYMENT_METHODS, paymentBody, paymentSchema, salesApi, type PaymentForm } from './salesApi';
import { useSalesInvalidate } from './salesHooks';
import { queryKeys } from '../../api/queryKeys';

const EMPTY_PAYMENT: PaymentForm = { amount: '', payment_method: 'cash', transaction_id: '', check_number: '', notes: '' };
const METHOD_OPTIONS = PAYMENT_METHODS.map((m) => ({ value: m, label: humanize(m) }));

/**
 * Records a payment (1000 Cash / 1100 AR) or a refund (the reverse, never more than is paid)
 * against an order; `orders` lets the payments page choose the order.
 */
export function PaymentDialog({
  mode,
  orderId,
  orderLabel,
  maxRefund,
  open,
  onClose,
}: {
  mode: 'payment' | 'refund';
  orderId: number | null;
  orderLabel?: string;
  maxRefund?: number;
  open: boolean;
  onClose: () => void;
}) {
  const toast = useToast();
  const invalidate = useSalesInvalidate();
  const [idemKey, setIdemKey] = useState(salesApi.newKey);
  const [chosen, setChosen] = useState('');
  const orders = useQuery({
    queryKey: queryKeys.sales.orderOptions(),
    queryFn: ({ signal }) => salesApi.list({ limit: 100, sort_by: 'created_at', sort_order: 'desc' }, signal),
    enabled: open && orderId === null,
  });
  const form = useZodForm(paymentSchema(mode === 'refund' ? maxRefund : undefined), { defaultValues: EMPTY_PAYMENT });
  const {
    register,
    formState: { errors },
  } = form;
  const target = orderId ?? (chosen ? Number(chosen) : null);
  const title = mode === 'refund' ? 'Record a refund' : 'Record a payment';
  return (
    <FormDialog
      form={form}
      open={open}
      onClose={onClose}
      onReset={() => {
        setChosen('');
        setIdemKey(salesApi.newKey());
      }}
      title={orderLabel ? `${title} · ${orderLabel}` : title}
      description={mode === 'refund' ? 'Money back to the customer; never more than was paid.' : 'Money received against the order.'}
      id="payment-form"
      label={title}
      submitLabel={mode === 'refund' ? 'Record refund' : 'Record payment'}
      check={() => (target === null ? 'Choose the order.' : null)}
      submit={(v) => {
        const body = paymentBody(target ?? 0, v);
        return mode === 'refund' ? salesApi.refund(body, idemKey) : salesApi.recordPayment(body, idemKey);
      }}
      onSuccess={async (p) => {
        toast.success(mode === 'refund' ? 'Refund recorded' : 'Payment recorded', `${p.payment_number} for ${p.order_number ?? 'the order'}.`);
        await invalidate();
      }}
      fields={['amount', 'payment_method', 'transaction_id', 'check_number', 'notes']}
    >
      {orderId === null && (
        <SelectField
          label="Order"
          required
          placeholder={orders.isPending ? 'Loading orders…' : 'Choose an order'}
          options={(orders.data ?? []).map((o) => ({ value: String(o.id), label: `${o.order_number} · ${o.customer_name ?? 'no customer'} · ${o.grand_total}` }))}
          value={chosen}
          onChange={(e) => setChosen(e.target.value)}
        />
      )}
      <div className="form__grid">
        <TextField label="Amount" required inputMode="decimal" placeholder="0.00" error={errors.amount?.message} {...register('amount')} />
        <SelectField label="Method" required options={METHOD_OPTIONS} error={errors.payment_method?.message} {...register('payment_method')} />
      </div>
      <div className="form__grid">
        <TextField label="Reference" hint="The processor's transaction id." error={errors.transaction_id?.message} {...register('transaction_id')} />
        {mode === 'payment' && <TextField label="Check number" error={errors.check_number?.message} {...register('check_number')} />}
      </div>
      <TextAreaField label="Notes" error={errors.notes?.message} {...register('notes')} />
    </FormDialog>
  );
}
