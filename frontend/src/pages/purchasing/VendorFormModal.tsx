import { useQuery, useQueryClient } from '@tanstack/react-query';
import { errorMessage } from '../../api/errors';
import { CheckboxField, FormError, SelectField, TextAreaField, TextField } from '../../components/Field';
import { FormDialog, useZodForm } from '../../components/FormDialog';
import { Modal } from '../../components/Modal';
import { Skeleton } from '../../components/States';
import { useToast } from '../../components/Toast';
import {
  VENDOR_FIELDS,
  purchasingApi,
  vendorCreateSchema,
  vendorFormValues,
  vendorUpdateSchema,
  type VendorBody,
  type VendorCreate,
  type VendorDetail,
  type VendorFormValues,
} from './purchasingApi';
import { queryKeys } from '../../api/queryKeys';

const RATINGS = [
  { value: '1', label: '1 · Poor' },
  { value: '2', label: '2 · Fair' },
  { value: '3', label: '3 · Good' },
  { value: '4', label: '4 · Very good' },
  { value: '5', label: '5 · Excellent' },
];

interface VendorFormModalProps {
  open: boolean;
  /** The vendor to edit, or null to create one. */
  vendorId: number | null;
  onClose: () => void;
}

/** Creates a vendor (POST /vendors/) or changes one (PUT /vendors/{id}). */
export function VendorFormModal({ open, vendorId, onClose }: VendorFormModalProps) {
  const editing = vendorId !== null;
  const detail = useQuery({
    queryKey: queryKeys.purchasing.vendor(vendorId),
    queryFn: ({ signal }) => purchasingApi.vendor(vendorId!, signal),
    enabled: open && editing,
    staleTime: 0,
  });
  return (
    <Modal
      open={open}
      onClose={onClose}
      size="lg"
      title={editing ? 'Edit vendor' : 'New vendor'}
      description={editing ? (detail.data ? `${detail.data.code} · ${detail.data.name}` : undefined) : 'A supplier you buy from; its code is made for you unless you type one.'}
    >
      {editing && detail.isPending ? (
        <div className="form" aria-busy="true">
          {Array.from({ length: 6 }, (_, i) => (
            <Skeleton key={i} height={34} />
          ))}
        </div>
      ) : editing && detail.error ? (
        <FormError message={errorMessage(detail.error)} title="The vendor could not be loaded." />
      ) : (
        <VendorForm key={vendorId ?? 'new'} vendor={editing ? (detail.data ?? null) : null} onClose={onClose} />
      )}
    </Modal>
  );
}

function VendorForm({ vendor, onClose }: { vendor: VendorDetail | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const form = useZodForm<VendorFormValues, VendorBody>(vendor ? vendorUpdateSchema : vendorCreateSchema, {
    defaultValues: vendorFormValues(vendor),
  });
  const {
    register,
    formState: { errors },
  } = form;
  return (
    <FormDialog
      embedded
      form={form}
      onClose={onClose}
      label={vendor ? 'Edit vendor' : 'New vendor'}
      submitLabel={vendor ? 'Save changes' : 'Create vendor'}
      lockWhilePending
      submit={(body) => (vendor ? purchasingApi.updateVendor(vendor.id, body) : purchasingApi.createVendor(body as VendorCreate))}
      onSuccess={async (saved) => {
        toast.success(vendor ? 'Vendor saved' : 'Vendor created', `${saved.code} · ${saved.name}`);
        await Promise.all([queryClient.invalidateQueries({ queryKey: queryKeys.vendors.all }), queryClient.invalidateQueries({ queryKey: queryKeys.purchasing.all })]);
      }}
      // 422s land on their fields; a 400 (a code another vendor has) is the form's sentence.
      fields={VENDOR_FIELDS}
    >
      <div className="form__grid">
        <TextField label="Name" required maxLength={200} autoComplete="off" error={errors.name?.message} {...register('name')} />
        <TextField
          label="Code"
          required={vendor !== null}
          maxLength={50}
          autoComplete="off"
          className="field--mono"
          hint={vendor ? undefined : 'Blank: the next VND-NNN code.'}
          error={errors.code?.message}
          {...register('code')}
        />
      </div>
      <div className="form__grid">
        <TextField label="Contact" autoComplete="off" error={errors.contact_name?.message} {...register('contact_name')} />
        <TextField label="Email" type="email" autoComplete="off" error={errors.email?.message} {...register('email')} />
      </div>
      <div className="form__grid">
        <TextField label="Phone" type="tel" autoComplete="off" error={errors.phone?.message} {...register('phone')} />
        <TextField label="Website" type="url" autoComplete="off" error={errors.website?.message} {...register('website')} />
      </div>
      <fieldset className="fieldset">
        <legend>Address</legend>
        <div className="form">
          <TextField label="Street address" autoComplete="off" error={errors.address_line1?.message} {...register('address_line1')} />
          <TextField label="Address line 2" autoComplete="off" error={errors.address_line2?.message} {...register('address_line2')} />
          <div className="form__grid form__grid--3">
            <TextField label="City" autoComplete="off" error={errors.city?.message} {...register('city')} />
            <TextField label="State or province" autoComplete="off" error={errors.state?.message} {...register('state')} />
            <TextField label="Postal code" autoComplete="off" error={errors.postal_code?.message} {...register('postal_code')} />
          </div>
          <TextField label="Country" autoComplete="off" error={errors.country?.message} {...register('country')} />
        </div>
      </fieldset>
      <fieldset className="fieldset">
        <legend>Terms</legend>
        <div className="form">
          <div className="form__grid form__grid--3">
            <TextField label="Payment terms" placeholder="Net 30" autoComplete="off" error={errors.payment_terms?.message} {...register('payment_terms')} />
            <TextField label="Lead time (days)" inputMode="numeric" error={errors.lead_time_days?.message} {...register('lead_time_days')} />
            <SelectField label="Rating" placeholder="Not rated" options={RATINGS} error={errors.rating?.message} {...register('rating')} />
          </div>
          <div className="form__grid">
            <TextField label="Our account number" autoComplete="off" error={errors.account_number?.message} {...register('account_number')} />
            <TextField label="Tax id" autoComplete="off" error={errors.tax_id?.message} {...register('tax_id')} />
          </div>
        </div>
      </fieldset>
      <TextAreaField label="Notes" error={errors.notes?.message} {...register('notes')} />
      {vendor && <CheckboxField label="Active" hint="Inactive vendors can't be chosen for new purchase orders." {...register('is_active')} />}
    </FormDialog>
  );
}
