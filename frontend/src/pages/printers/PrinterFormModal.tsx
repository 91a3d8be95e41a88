import { useEffect } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Controller } from 'react-hook-form';
import { z } from 'zod';
import { SelectField, TextAreaField, TextField } from '../../components/Field';
import { FormDialog, useZodForm } from '../../components/FormDialog';
import { useToast } from '../../components/Toast';
import { BRANDS, BRAND_VALUES, printerApi, type PrinterBrand, type PrinterCreate, type PrinterDetail } from './printerApi';
import { useWorkCenters, workCenterOptions } from './workCenters';
import { queryKeys } from '../../api/queryKeys';

/** An IPv4 or IPv6 literal or a host name, as the server's `plausible_address` accepts. */
const ADDRESS = /^[A-Za-z0-9.:_-]{1,255}$/;
const optional = z
  .string()
  .trim()
  .transform((v) => v || null);

export const printerFormSchema = z
  .object({
    code: z.string().trim().min(1, 'Enter a code, e.g. PRT-001.').max(50, 'At most 50 characters.'),
    name: z.string().trim().min(1, 'Enter a name people recognise, e.g. "X1C bay 3".').max(100, 'At most 100 characters.'),
    model: z.string().trim().min(1, 'Enter the model, e.g. X1 Carbon.').max(100, 'At most 100 characters.'),
    brand: z.string(),
    serial_number: optional,
    ip_address: z
      .string()
      .trim()
      .refine((v) => v === '' || ADDRESS.test(v), 'Enter an IP address or host name.')
      .transform((v) => v || null),
    location: optional,
    /** The work center's id as the select holds it; empty for none. */
    work_center_id: z.string(),
    notes: optional,
  })
  .transform(
    (v) =>
      ({
        code: v.code,
        name: v.name,
        model: v.model,
        brand: BRAND_VALUES.find((b) => b === v.brand) ?? null,
        serial_number: v.serial_number,
        ip_address: v.ip_address,
        location: v.location,
        work_center_id: v.work_center_id ? Number(v.work_center_id) : null,
        notes: v.notes,
      }) satisfies PrinterCreate,
  );

type FormIn = z.input<typeof printerFormSchema>;
const FIELDS = ['code', 'name', 'model', 'brand', 'serial_number', 'ip_address', 'location', 'work_center_id', 'notes'] as const;

function formValues(p: PrinterDetail | null): FormIn {
  return {
    code: p?.code ?? '',
    name: p?.name ?? '',
    model: p?.model ?? '',
    brand: p?.brand ?? 'bambulab',
    serial_number: p?.serial_number ?? '',
    ip_address: p?.ip_address ?? '',
    location: p?.location ?? '',
    work_center_id: p?.work_center_id ? String(p.work_center_id) : '',
    notes: p?.notes ?? '',
  };
}

/** Adds a printer (`printer` null) or changes one; the code of a new printer is suggested by the server. */
export function PrinterFormModal({ open, printer, onClose }: { open: boolean; printer: PrinterDetail | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const editing = printer !== null;
  const suggestion = useQuery({ queryKey: queryKeys.printers.codeSuggestion(), queryFn: ({ signal }) => printerApi.suggestCode(signal), enabled: open && !editing });
  const centers = useWorkCenters(open);
  const form = useZodForm(printerFormSchema, { defaultValues: formValues(printer) });
  const {
    control,
    register,
    reset,
    getValues,
    setValue,
    formState: { errors },
  } = form;

  useEffect(() => {
    if (open) reset(formValues(printer));
  }, [open, printer, reset]);
  useEffect(() => {
    if (open && !editing && suggestion.data && !getValues('code')) setValue('code', suggestion.data.code);
  }, [open, editing, suggestion.data, getValues, setValue]);

  return (
    <FormDialog
      form={form}
      open={open}
      onClose={onClose}
      title={editing ? `Edit ${printer.code}` : 'Add printer'}
      description="A machine of your farm. Its address lets Strata reach it on your network."
      id="printer-form"
      label={editing ? 'Edit printer' : 'Add printer'}
      submitLabel={editing ? 'Save printer' : 'Add printer'}
      submit={(body) => (printer ? printerApi.update(printer.id, body) : printerApi.create(body))}
      onSuccess={async (p) => {
        toast.success(editing ? 'Printer saved' : 'Printer added', `${p.code} · ${p.name}`);
        // Work centers list their printers and the command center names each printer's.
        await Promise.all([
          queryClient.invalidateQueries({ queryKey: queryKeys.printers.all }),
          queryClient.invalidateQueries({ queryKey: queryKeys.production.workCentersAll }),
          queryClient.invalidateQueries({ queryKey: queryKeys.commandCenter.all }),
        ]);
      }}
      fields={FIELDS}
    >
      <div className="form__grid">
        <TextField label="Code" required placeholder="PRT-001" error={errors.code?.message} {...register('code')} />
        <TextField label="Name" required error={errors.name?.message} {...register('name')} />
        <SelectField
          label="Brand"
          options={BRAND_VALUES.map((b: PrinterBrand) => ({ value: b, label: BRANDS[b] }))}
          error={errors.brand?.message}
          {...register('brand')}
        />
        <TextField label="Model" required placeholder="X1 Carbon" error={errors.model?.message} {...register('model')} />
        <TextField label="Serial number" error={errors.serial_number?.message} {...register('serial_number')} />
        <TextField label="IP address" placeholder="192.168.1.50" className="mono" error={errors.ip_address?.message} {...register('ip_address')} />
        <TextField label="Location" placeholder="Rack A, shelf 2" error={errors.location?.message} {...register('location')} />
        <Controller
          control={control}
          name="work_center_id"
          render={({ field }) => (
            <SelectField
              label="Work center"
              hint={centers.isError ? 'The work centers could not be loaded.' : 'The production work center this printer is a resource of.'}
              placeholder={centers.isPending ? 'Loading work centers…' : 'None'}
              options={centers.isPending ? [] : workCenterOptions(centers.data ?? [], field.value)}
              error={errors.work_center_id?.message}
              {...field}
            />
          )}
        />
      </div>
      <TextAreaField label="Notes" error={errors.notes?.message} {...register('notes')} />
    </FormDialog>
  );
}
