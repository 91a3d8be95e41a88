import { useState } from 'react';
import { SelectField, TextAreaField, TextField } from '../../components/Field';
import { FormDialog, useZodForm } from '../../components/FormDialog';
import { useToast } from '../../components/Toast';
import { humanize } from '../../lib/format';
import {
  SALES_PAYMENT_STATUSES,
  SHIPPING_EVENT_LABEL,
  SHIPPING_EVENT_SOURCE_LABEL,
  SHIPPING_EVENT_SOURCES,
  SHIPPING_EVENT_TYPES,
  addressBody,
  addressSchema,
  addressValues,
  noteBody,
  noteSchema,
  paymentDetailsBody,
  paymentDetailsSchema,
  salesApi,
  shippingDetailsBody,
  shippingDetailsSchema,
  shippingDetailsValues,
  trackingBody,
  trackingSchema,
  type NoteForm,
  type PaymentDetailsForm,
  type SalesOrder,
  type TrackingForm,
} from './salesApi';
import { useSalesInvalidate } from './salesHooks';

const EMPTY_NOTE: NoteForm = { title: '', description: '' };

/** Adds a note to the order's history (admins; the server also lets the order's owner). */
export function NoteDialog({ order, open, onClose }: { order: { id: number; order_number: string }; open: boolean; onClose: () => void }) {
  const toast = useToast();
  const invalidate = useSalesInvalidate();
  const [idemKey, setIdemKey] = useState(salesApi.newKey);
  const form = useZodForm(noteSchema, { defaultValues: EMPTY_NOTE });
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
      title={`Add a note · ${order.order_number}`}
      description="Notes stay in the order's history with who wrote them and when."
      id="note-form"
      label="Add a note"
      submitLabel="Add note"
      submit={(v) => salesApi.addNote(order.id, noteBody(v), idemKey)}
      onSuccess={async () => {
        toast.success('Note added', `The note is in ${order.order_number}'s history.`);
        await invalidate();
      }}
      fields={['title', 'description']}
    >
      <TextAreaField label="Note" required rows={3} hint="Up to 255 characters; longer text goes in the details." error={errors.title?.message} {...register('title')} />
      <TextAreaField label="Details" rows={4} error={errors.description?.message} {...register('description')} />
    </FormDialog>
  );
}

const EMPTY_TRACKING: TrackingForm = { event_type: 'in_transit', event_at: '', location: '', description: '', source: 'manual' };
const TRACKING_TYPE_OPTIONS = SHIPPING_EVENT_TYPES.map((t) => ({ value: t, label: SHIPPING_EVENT_LABEL[t] }));
const TRACKING_SOURCE_OPTIONS = SHIPPING_EVENT_SOURCES.map((s) => ({ value: s, label: SHIPPING_EVENT_SOURCE_LABEL[s] }));

/** Records a carrier tracking update on a shipped order; `delivered` moves it to delivered. */
export function TrackingDialog({ order, open, onClose }: { order: { id: number; order_number: string }; open: boolean; onClose: () => void }) {
  const toast = useToast();
  const invalidate = useSalesInvalidate();
  const [idemKey, setIdemKey] = useState(salesApi.newKey);
  const form = useZodForm(trackingSchema(), { defaultValues: EMPTY_TRACKING });
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
      title={`Tracking update · ${order.order_number}`}
      description="What the carrier reported. Delivered marks the order delivered."
      id="tracking-form"
      label="Tracking update"
      submitLabel="Record update"
      submit={(v) => salesApi.recordShippingEvent(order.id, trackingBody(v), idemKey)}
      onSuccess={async (e) => {
        toast.success(
          'Tracking updated',
          e.event_type === 'delivered' ? `${order.order_number} is delivered.` : `${SHIPPING_EVENT_LABEL[e.event_type]} recorded for ${order.order_number}.`,
        );
        // The order itself may have moved (delivered): every sales view is refetched.
        await invalidate();
      }}
      fields={['event_type', 'event_at', 'location', 'description', 'source']}
    >
      <div className="form__grid">
        <SelectField label="Event" required options={TRACKING_TYPE_OPTIONS} error={errors.event_type?.message} {...register('event_type')} />
        <TextField label="When" type="datetime-local" hint="Left empty: now." error={errors.event_at?.message} {...register('event_at')} />
      </div>
      <div className="form__grid">
        <TextField label="Location" placeholder="Memphis, TN" error={errors.location?.message} {...register('location')} />
        <SelectField label="Reported by" options={TRACKING_SOURCE_OPTIONS} error={errors.source?.message} {...register('source')} />
      </div>
      <TextAreaField label="Description" error={errors.description?.message} {...register('description')} />
    </FormDialog>
  );
}

const PAYMENT_STATUS_OPTIONS = SALES_PAYMENT_STATUSES.map((s) => ({ value: s, label: humanize(s) }));

/**
 * An admin's payment details on an order: the customer's method and the processor's
 * reference, and the overdue or refunded flag. Pending, partial and paid follow the recorded
 * payments; the server's 400 says what is paid when they disagree.
 */
export function PaymentDetailsDialog({ order, open, onClose }: { order: SalesOrder; open: boolean; onClose: () => void }) {
  const toast = useToast();
  const invalidate = useSalesInvalidate();
  const current: PaymentDetailsForm = {
    payment_status: order.payment_status,
    payment_method: order.payment_method ?? '',
    payment_transaction_id: order.payment_transaction_id ?? '',
  };
  const form = useZodForm(paymentDetailsSchema, { values: current });
  const {
    register,
    formState: { errors },
  } = form;
  return (
    <FormDialog
      form={form}
      open={open}
      onClose={onClose}
      resetTo={current}
      title={`Payment details · ${order.order_number}`}
      description="Pending, partial and paid follow the payments recorded below. Flag an unpaid balance as overdue, or a fully refunded order as refunded."
      id="payment-details-form"
      label="Payment details"
      submitLabel="Save"
      submit={(v) => salesApi.setPaymentDetails(order.id, paymentDetailsBody(v))}
      onSuccess={async (o) => {
        toast.success('Payment details saved', `${o.order_number} is ${humanize(o.payment_status).toLowerCase()}.`);
        await invalidate();
      }}
      fields={['payment_status', 'payment_method', 'payment_transaction_id']}
    >
      <SelectField label="Payment status" required options={PAYMENT_STATUS_OPTIONS} error={errors.payment_status?.message} {...register('payment_status')} />
      <div className="form__grid">
        <TextField label="Method" placeholder="Etsy Payments" hint="Left empty: unchanged." error={errors.payment_method?.message} {...register('payment_method')} />
        <TextField label="Transaction reference" hint="Left empty: unchanged." error={errors.payment_transaction_id?.message} {...register('payment_transaction_id')} />
      </div>
    </FormDialog>
  );
}

/**
 * Changes where an order ships (its owner or an admin, until it has shipped; the server's
 * 400 shows in the form when it already has). Starts from the order's address.
 */
export function AddressDialog({ order, open, onClose }: { order: SalesOrder; open: boolean; onClose: () => void }) {
  const toast = useToast();
  const invalidate = useSalesInvalidate();
  const form = useZodForm(addressSchema, { values: addressValues(order) });
  const {
    register,
    formState: { errors },
  } = form;
  return (
    <FormDialog
      form={form}
      open={open}
      onClose={onClose}
      title={`Change address · ${order.order_number}`}
      description="Where the order ships. A field emptied here keeps its current text."
      id="address-form"
      label="Change address"
      submitLabel="Save address"
      submit={(v) => salesApi.setAddress(order.id, addressBody(v))}
      onSuccess={async (o) => {
        toast.success('Address changed', `${o.order_number} ships to ${[o.shipping_address_line1, o.shipping_city].filter(Boolean).join(', ')}.`);
        await invalidate();
      }}
      fields={['shipping_address_line1', 'shipping_address_line2', 'shipping_city', 'shipping_state', 'shipping_zip', 'shipping_country']}
    >
      <TextField label="Street" required autoComplete="address-line1" error={errors.shipping_address_line1?.message} {...register('shipping_address_line1')} />
      <TextField label="Second line" autoComplete="address-line2" error={errors.shipping_address_line2?.message} {...register('shipping_address_line2')} />
      <div className="form__grid">
        <TextField label="City" autoComplete="address-level2" error={errors.shipping_city?.message} {...register('shipping_city')} />
        <TextField label="State" autoComplete="address-level1" error={errors.shipping_state?.message} {...register('shipping_state')} />
      </div>
      <div className="form__grid">
        <TextField label="Postal code" autoComplete="postal-code" error={errors.shipping_zip?.message} {...register('shipping_zip')} />
        <TextField label="Country" autoComplete="country-name" error={errors.shipping_country?.message} {...register('shipping_country')} />
      </div>
    </FormDialog>
  );
}

/**
 * An admin's shipping details on an order: carrier, tracking number and when it left, e.g.
 * for a parcel sent outside Strata. Starts from what the order has.
 */
export function ShippingDetailsDialog({ order, open, onClose }: { order: SalesOrder; open: boolean; onClose: () => void }) {
  const toast = useToast();
  const invalidate = useSalesInvalidate();
  const form = useZodForm(shippingDetailsSchema, { values: shippingDetailsValues(order) });
  const {
    register,
    formState: { errors },
  } = form;
  return (
    <FormDialog
      form={form}
      open={open}
      onClose={onClose}
      title={`Shipping details · ${order.order_number}`}
      description="The carrier, tracking number and ship date on the order. A field emptied here keeps its current value."
      id="shipping-details-form"
      label="Shipping details"
      submitLabel="Save"
      submit={(v) => salesApi.setShippingDetails(order.id, shippingDetailsBody(v))}
      onSuccess={async (o) => {
        toast.success('Shipping details saved', `${o.order_number}: ${[o.carrier, o.tracking_number].filter(Boolean).join(' ') || 'saved'}.`);
        await invalidate();
      }}
      fields={['carrier', 'tracking_number', 'shipped_at']}
    >
      <div className="form__grid">
        <TextField label="Carrier" placeholder="UPS" error={errors.carrier?.message} {...register('carrier')} />
        <TextField label="Tracking number" error={errors.tracking_number?.message} {...register('tracking_number')} />
      </div>
      <TextField label="Shipped at" type="datetime-local" error={errors.shipped_at?.message} {...register('shipped_at')} />
    </FormDialog>
  );
}
