import { useState } from 'react';
import { SelectField, TextAreaField, TextField } from '../../components/Field';
import { FormDialog, useZodForm } from '../../components/FormDialog';
import { useToast } from '../../components/Toast';
import { formatMoney, toNumber } from '../../lib/format';
import { useInvoiceInvalidate } from './invoiceHooks';
import {
  INVOICE_METHOD_LABEL,
  INVOICE_METHODS,
  VOID_REASON_MAX,
  createInvoiceBody,
  createInvoiceSchema,
  invoicePaymentBody,
  invoicePaymentSchema,
  invoicesApi,
  sendBody,
  sendSchema,
  voidSchema,
  type CreateInvoiceForm,
  type Invoice,
  type InvoicePaymentForm,
  type SendForm,
  type VoidForm,
} from './invoicesApi';

const METHOD_OPTIONS = INVOICE_METHODS.map((m) => ({ value: m, label: INVOICE_METHOD_LABEL[m] }));

interface DialogProps {
  invoice: Invoice;
  open: boolean;
  onClose: () => void;
}

/**
 * Records a payment against the invoice (`PATCH /invoices/{id}`): the amount starts at what
 * is due and may not exceed it; the server books it (1000 Cash / 1100 AR) and moves the
 * invoice to partly paid or paid.
 */
export function InvoicePaymentDialog({ invoice, open, onClose }: DialogProps) {
  const toast = useToast();
  const invalidate = useInvoiceInvalidate();
  const [idemKey, setIdemKey] = useState(invoicesApi.newKey);
  const due = toNumber(invoice.amount_due) ?? 0;
  const current: InvoicePaymentForm = { amount_paid: due.toFixed(2), payment_method: 'cash', payment_reference: '' };
  const form = useZodForm(invoicePaymentSchema(due), { values: current });
  const {
    register,
    formState: { errors },
  } = form;
  return (
    <FormDialog
      form={form}
      open={open}
      onClose={onClose}
      onReset={() => setIdemKey(invoicesApi.newKey())}
      resetTo={current}
      title={`Record a payment · ${invoice.invoice_number}`}
      description={`${formatMoney(invoice.amount_due)} is due of ${formatMoney(invoice.total)}. The payment is posted to the ledger against the invoice's order.`}
      id="invoice-payment-form"
      label="Record a payment"
      submitLabel="Record payment"
      errorTitle="The payment was not recorded"
      submit={(v) => invoicesApi.recordPayment(invoice.id, invoicePaymentBody(v), idemKey)}
      onSuccess={async (i) => {
        toast.success(
          'Payment recorded',
          (toNumber(i.amount_due) ?? 0) > 0 ? `${formatMoney(i.amount_due)} is still due on ${i.invoice_number}.` : `${i.invoice_number} is paid in full.`,
        );
        await invalidate();
      }}
      fields={['amount_paid', 'payment_method', 'payment_reference']}
    >
      <div className="form__grid">
        <TextField label="Amount" required inputMode="decimal" placeholder="0.00" error={errors.amount_paid?.message} {...register('amount_paid')} />
        <SelectField label="Method" required options={METHOD_OPTIONS} error={errors.payment_method?.message} {...register('payment_method')} />
      </div>
      <TextField label="Reference" hint="A check number or the processor's transaction id." error={errors.payment_reference?.message} {...register('payment_reference')} />
    </FormDialog>
  );
}

/**
 * Sends the invoice (`POST /invoices/{id}/send`): to the address given, by default the
 * customer's e-mail. With mail configured the PDF is e-mailed; either way the sending is
 * recorded and a draft becomes sent.
 */
export function SendInvoiceDialog({ invoice, open, onClose }: DialogProps) {
  const toast = useToast();
  const invalidate = useInvoiceInvalidate();
  const [idemKey, setIdemKey] = useState(invoicesApi.newKey);
  const current: SendForm = { to: invoice.customer_email ?? '' };
  const form = useZodForm(sendSchema, { values: current });
  const {
    register,
    formState: { errors },
  } = form;
  return (
    <FormDialog
      form={form}
      open={open}
      onClose={onClose}
      onReset={() => setIdemKey(invoicesApi.newKey())}
      resetTo={current}
      title={`Send ${invoice.invoice_number}`}
      description="The invoice's PDF is e-mailed when mail is configured; the sending is recorded and a draft becomes sent."
      id="invoice-send-form"
      label="Send invoice"
      submitLabel="Send invoice"
      errorTitle="The invoice was not sent"
      submit={(v) => invoicesApi.send(invoice.id, sendBody(v), idemKey)}
      onSuccess={async (i) => {
        toast.success('Invoice sent', `${i.invoice_number} was sent${i.sent_to ? ` to ${i.sent_to}` : ''}.`);
        await invalidate();
      }}
      fields={['to']}
    >
      <TextField
        label="E-mail"
        type="email"
        autoComplete="email"
        placeholder={invoice.customer_email ?? 'name@company.com'}
        hint={invoice.customer_email ? "Left as is: the customer's address on the invoice." : 'The invoice has no customer e-mail: enter one.'}
        error={errors.to?.message}
        {...register('to')}
      />
    </FormDialog>
  );
}

const EMPTY_VOID: VoidForm = { reason: '' };

/**
 * Voids the invoice (`POST /invoices/{id}/void`) with a required reason: its receivable entry
 * is mirrored. The server refuses an invoice with payments applied (409); its sentence shows
 * in the dialog.
 */
export function VoidInvoiceDialog({ invoice, open, onClose }: DialogProps) {
  const toast = useToast();
  const invalidate = useInvoiceInvalidate();
  const [idemKey, setIdemKey] = useState(invoicesApi.newKey);
  const form = useZodForm(voidSchema, { defaultValues: EMPTY_VOID });
  const {
    register,
    formState: { errors },
  } = form;
  return (
    <FormDialog
      form={form}
      open={open}
      onClose={onClose}
      onReset={() => setIdemKey(invoicesApi.newKey())}
      size="sm"
      title={`Void ${invoice.invoice_number}?`}
      description="Its receivable entry is reversed and nothing is owed on it any more. This cannot be undone; an invoice with payments applied cannot be voided until they are refunded or voided."
      id="invoice-void-form"
      label="Void invoice"
      submitLabel="Void invoice"
      submitVariant="danger"
      cancelLabel="Keep invoice"
      errorTitle="The invoice was not voided"
      submit={(v) => invoicesApi.void(invoice.id, { reason: v.reason.trim() }, idemKey)}
      onSuccess={async (i) => {
        toast.success('Invoice voided', `${i.invoice_number} is voided; its receivable entry was reversed.`);
        await invalidate();
      }}
      fields={['reason']}
    >
      <TextAreaField label="Reason" required rows={3} maxLength={VOID_REASON_MAX} hint="Kept with the invoice and its reversing entry." error={errors.reason?.message} {...register('reason')} />
    </FormDialog>
  );
}

const EMPTY_CREATE: CreateInvoiceForm = { amount: '' };

/**
 * Writes an invoice for an order (`POST /invoices`): everything not billed yet, or only a
 * deposit. The server refuses orders not confirmed yet and ones billed in full (400).
 */
export function CreateInvoiceDialog({
  order,
  left,
  open,
  onClose,
  onCreated,
}: {
  order: { id: number; order_number: string };
  /** What is left to invoice, when known. */
  left: number | null;
  open: boolean;
  onClose: () => void;
  onCreated?: (invoice: Invoice) => void;
}) {
  const toast = useToast();
  const invalidate = useInvoiceInvalidate();
  const [idemKey, setIdemKey] = useState(invoicesApi.newKey);
  const form = useZodForm(createInvoiceSchema(left), { defaultValues: EMPTY_CREATE });
  const {
    register,
    formState: { errors },
  } = form;
  return (
    <FormDialog
      form={form}
      open={open}
      onClose={onClose}
      onReset={() => setIdemKey(invoicesApi.newKey())}
      title={`Create invoice · ${order.order_number}`}
      description={
        left === null
          ? 'Bills what the order has not been billed yet, or only a deposit.'
          : `${formatMoney(left)} of the order is not invoiced yet. Leave the amount empty to bill all of it, or enter a deposit.`
      }
      id="invoice-create-form"
      label="Create invoice"
      submitLabel="Create invoice"
      errorTitle="The invoice was not created"
      submit={(v) => invoicesApi.create(createInvoiceBody(order.id, v), idemKey)}
      onSuccess={async (i) => {
        toast.success('Invoice created', `${i.invoice_number} bills ${formatMoney(i.total)}, due ${i.due_date}.`);
        await invalidate();
        onCreated?.(i);
      }}
      fields={['amount']}
    >
      <TextField
        label="Deposit amount"
        inputMode="decimal"
        placeholder={left === null ? 'Everything not billed yet' : left.toFixed(2)}
        hint="Optional: left empty, the invoice bills everything not billed yet."
        error={errors.amount?.message}
        {...register('amount')}
      />
    </FormDialog>
  );
}
