import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useWatch } from 'react-hook-form';
import { z } from 'zod';
import { customersApi, priceLevelsApi, taxRatesApi } from '../../api/endpoints';
import type { CustomerCreate, CustomerListRow, CustomerUpdate } from '../../api/model';
import { queryKeys } from '../../api/queryKeys';
import { CheckboxField, SelectField, TextField } from '../../components/Field';
import { FormDialog, useZodForm } from '../../components/FormDialog';
import { useToast } from '../../components/Toast';
import { emailProblem } from '../../lib/validation';

/** Text as typed; blank is null. */
const text = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `At most ${max} characters.`)
    .transform((v) => v || null);
const name = (what: string) => z.string().trim().min(1, `Enter the ${what}.`).max(100, 'At most 100 characters.');

/** The customer dialog; its output is the generated body of POST /admin/customers/ (and of PATCH). */
export const customerSchema = z.object({
  first_name: name('first name'),
  last_name: name('last name'),
  email: z
    .string()
    .trim()
    .superRefine((v, ctx) => {
      const problem = emailProblem(v);
      if (problem) ctx.addIssue({ code: 'custom', message: problem === 'Enter your email address.' ? 'Enter their email address.' : problem });
    }),
  company_name: text(200),
  phone: text(50),
  tax_exempt: z.boolean(),
  tax_exempt_certificate: text(100),
  /** A tax rate's id; blank: chosen automatically (by shipping region, else the default). */
  tax_rate_id: z
    .string()
    .trim()
    .transform((v) => (v ? Number(v) : null)),
  /** An active price level's id; blank: list prices. */
  price_level_id: z
    .string()
    .trim()
    .transform((v) => (v ? Number(v) : null)),
}) satisfies z.ZodType<CustomerCreate & CustomerUpdate, unknown>;

type CustomerForm = z.input<typeof customerSchema>;
const FIELDS = Object.keys(customerSchema.shape) as (keyof CustomerForm)[];
const EMPTY: CustomerForm = {
  first_name: '',
  last_name: '',
  email: '',
  company_name: '',
  phone: '',
  tax_exempt: false,
  tax_exempt_certificate: '',
  tax_rate_id: '',
  price_level_id: '',
};

function fromCustomer(c: CustomerListRow): CustomerForm {
  return {
    first_name: c.first_name,
    last_name: c.last_name,
    email: c.email,
    company_name: c.company_name ?? '',
    phone: c.phone ?? '',
    tax_exempt: c.tax_exempt,
    tax_exempt_certificate: c.tax_exempt_certificate ?? '',
    tax_rate_id: c.tax_rate_id === null ? '' : String(c.tax_rate_id),
    price_level_id: c.price_level_id === null ? '' : String(c.price_level_id),
  };
}

/** Adds a customer (`customer` null) or edits one: name, contact, how they are taxed and priced. */
export function CustomerFormDialog({ open, customer, onClose }: { open: boolean; customer: CustomerListRow | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const initial = customer ? fromCustomer(customer) : EMPTY;
  const form = useZodForm(customerSchema, { defaultValues: initial });
  const {
    register,
    control,
    formState: { errors },
  } = form;
  const exempt = useWatch({ control, name: 'tax_exempt' });
  // Every rate, so a customer kept on a since-deactivated rate still shows it; only active ones are offered.
  const rates = useQuery({ queryKey: queryKeys.taxRates.rates(true), queryFn: ({ signal }) => taxRatesApi.list(true, signal), enabled: open });
  const rateOptions = (rates.data ?? [])
    .filter((r) => r.is_active || r.id === customer?.tax_rate_id)
    .map((r) => ({
      value: String(r.id),
      label: `${r.name} (${r.rate_percent}%${r.region ? `, ${r.region}` : ''})${r.is_active ? '' : ' (inactive)'}`,
    }));
  // Every level, so a customer kept on a since-deactivated level still shows it; only active ones are offered.
  const levels = useQuery({ queryKey: queryKeys.priceLevels.levels(false), queryFn: ({ signal }) => priceLevelsApi.list(false, signal), enabled: open });
  const levelOptions = (levels.data ?? [])
    .filter((l) => l.is_active || l.id === customer?.price_level_id)
    .map((l) => ({ value: String(l.id), label: `${l.name} (${l.discount_percent}% off)${l.is_active ? '' : ' (inactive)'}` }));

  return (
    <FormDialog
      form={form}
      open={open}
      onClose={onClose}
      resetTo={initial}
      size="lg"
      title={customer ? `Edit ${customer.full_name || customer.email}` : 'Add customer'}
      id="customer-form"
      label={customer ? 'Edit customer' : 'Add customer'}
      submitLabel={customer ? 'Save' : 'Add customer'}
      errorTitle="The customer was not saved"
      submit={(v) => (customer ? customersApi.update(customer.id, v) : customersApi.create(v))}
      onSuccess={async (saved) => {
        toast.success(customer ? 'Customer saved' : 'Customer added', saved.full_name || saved.email);
        await queryClient.invalidateQueries({ queryKey: queryKeys.customers.all });
      }}
      fields={FIELDS}
    >
      <div className="form__grid">
        <TextField label="First name" required autoComplete="off" error={errors.first_name?.message} {...register('first_name')} />
        <TextField label="Last name" required autoComplete="off" error={errors.last_name?.message} {...register('last_name')} />
      </div>
      <div className="form__grid">
        <TextField label="Email" required type="email" autoComplete="off" error={errors.email?.message} {...register('email')} />
        <TextField label="Phone" type="tel" error={errors.phone?.message} {...register('phone')} />
      </div>
      <TextField label="Company" error={errors.company_name?.message} {...register('company_name')} />
      <fieldset className="fieldset">
        <legend>Tax</legend>
        <CheckboxField label="Tax exempt" hint="No tax is charged on their orders and quotes." {...register('tax_exempt')} />
        <div className="form__grid">
          <TextField
            label="Exemption certificate"
            hint={exempt ? 'The certificate or permit number on file.' : undefined}
            error={errors.tax_exempt_certificate?.message}
            {...register('tax_exempt_certificate')}
          />
          <SelectField
            // Mounted again once the rates arrive, so the customer's rate is selected in the list.
            key={rates.isSuccess ? 'rates' : 'loading'}
            label="Tax rate"
            placeholder={rates.isPending ? 'Loading tax rates…' : 'Automatic (by region, else the default)'}
            hint={rates.isError ? 'The tax rates could not be loaded.' : undefined}
            options={rateOptions}
            error={errors.tax_rate_id?.message}
            {...register('tax_rate_id')}
          />
        </div>
      </fieldset>
      <SelectField
        // Mounted again once the levels arrive, so the customer's level is selected in the list.
        key={levels.isSuccess ? 'levels' : 'loading'}
        label="Price level"
        placeholder={levels.isPending ? 'Loading price levels…' : 'None (list prices)'}
        hint={levels.isError ? 'The price levels could not be loaded.' : 'Their orders are priced at the level’s item prices, else its discount.'}
        options={levelOptions}
        error={errors.price_level_id?.message}
        {...register('price_level_id')}
      />
    </FormDialog>
  );
}
