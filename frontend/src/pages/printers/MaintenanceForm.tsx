import { useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { SelectField, TextAreaField, TextField } from '../../components/Field';
import { FormDialog, useZodForm } from '../../components/FormDialog';
import { useToast } from '../../components/Toast';
import { isoToLocalInput, localInputToIso } from '../../lib/localTime';
import { MAINTENANCE_TYPES, printerApi, type MaintenanceCreate, type MaintenanceType } from './printerApi';
import { queryKeys } from '../../api/queryKeys';

const MONEY = /^\d+(\.\d{1,2})?$/;
const MINUTES = /^\d{1,6}$/;
const optional = z
  .string()
  .trim()
  .transform((v) => v || null);

/** The form's rules mirror `printers::rules::check_maintenance`; the server has the last word. */
export const maintenanceFormSchema = z
  .object({
    maintenance_type: z.string().refine((v) => v in MAINTENANCE_TYPES, 'Choose what kind of maintenance it was.'),
    description: z.string().trim().min(1, 'Say what was done.').max(1000, 'At most 1000 characters.'),
    performed_by: optional,
    performed_at: z.string(),
    next_due_at: z.string(),
    cost: z
      .string()
      .trim()
      .refine((v) => v === '' || MONEY.test(v), 'Enter an amount, 0 or more, with at most two decimals.'),
    downtime_minutes: z
      .string()
      .trim()
      .refine((v) => v === '' || MINUTES.test(v), 'Enter whole minutes, 0 or more.'),
    parts_used: optional,
    notes: optional,
  })
  .superRefine((v, ctx) => {
    const performed = localInputToIso(v.performed_at);
    if (v.performed_at && !performed) ctx.addIssue({ code: 'custom', path: ['performed_at'], message: 'Enter a valid date and time.' });
    if (performed && Date.parse(performed) > Date.now() + 60_000)
      ctx.addIssue({ code: 'custom', path: ['performed_at'], message: 'Maintenance cannot be logged in the future.' });
    const due = localInputToIso(v.next_due_at);
    if (v.next_due_at && !due) ctx.addIssue({ code: 'custom', path: ['next_due_at'], message: 'Enter a valid date and time.' });
    const from = performed ? Date.parse(performed) : Date.now();
    if (due && Date.parse(due) <= from) ctx.addIssue({ code: 'custom', path: ['next_due_at'], message: 'The next due time must come after the maintenance.' });
  })
  .transform(
    (v) =>
      ({
        maintenance_type: v.maintenance_type as MaintenanceType,
        description: v.description,
        performed_by: v.performed_by,
        performed_at: localInputToIso(v.performed_at),
        next_due_at: localInputToIso(v.next_due_at),
        cost: v.cost || null,
        downtime_minutes: v.downtime_minutes ? Number(v.downtime_minutes) : null,
        parts_used: v.parts_used,
        notes: v.notes,
      }) satisfies MaintenanceCreate,
  );

type FormIn = z.input<typeof maintenanceFormSchema>;
const FIELDS = ['maintenance_type', 'description', 'performed_by', 'performed_at', 'next_due_at', 'cost', 'downtime_minutes', 'parts_used', 'notes'] as const;

function blank(): FormIn {
  return {
    maintenance_type: 'routine',
    description: '',
    performed_by: '',
    performed_at: isoToLocalInput(new Date()),
    next_due_at: '',
    cost: '',
    downtime_minutes: '',
    parts_used: '',
    notes: '',
  };
}

/** Logs maintenance on one printer; the history and the due list refresh after it. */
export function MaintenanceForm({ printerId, onDone }: { printerId: number; onDone: () => void }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const form = useZodForm(maintenanceFormSchema, { defaultValues: blank() });
  const {
    register,
    formState: { errors },
  } = form;
  return (
    <FormDialog
      embedded
      form={form}
      onClose={onDone}
      className="form printer-maintenance-form"
      footerClassName="form__row form__row--end"
      label="Log maintenance"
      submitLabel="Log maintenance"
      submit={(body) => printerApi.logMaintenance(printerId, body)}
      onSuccess={async (m) => {
        toast.success('Maintenance logged', `${MAINTENANCE_TYPES[m.maintenance_type]}: ${m.description}`);
        await queryClient.invalidateQueries({ queryKey: queryKeys.printers.all });
      }}
      fields={FIELDS}
    >
      <div className="form__grid">
        <SelectField
          label="Kind"
          required
          options={Object.entries(MAINTENANCE_TYPES).map(([value, label]) => ({ value, label }))}
          error={errors.maintenance_type?.message}
          {...register('maintenance_type')}
        />
        <TextField label="Done by" placeholder="Your name by default" error={errors.performed_by?.message} {...register('performed_by')} />
        <TextField label="Done at" type="datetime-local" error={errors.performed_at?.message} {...register('performed_at')} />
        <TextField label="Next due" type="datetime-local" hint="Leave empty when nothing is scheduled." error={errors.next_due_at?.message} {...register('next_due_at')} />
        <TextField label="Cost" inputMode="decimal" placeholder="0.00" error={errors.cost?.message} {...register('cost')} />
        <TextField label="Downtime (minutes)" inputMode="numeric" error={errors.downtime_minutes?.message} {...register('downtime_minutes')} />
      </div>
      <TextField label="What was done" required placeholder="Replaced the 0.4 mm nozzle, recalibrated flow" error={errors.description?.message} {...register('description')} />
      <TextField label="Parts used" error={errors.parts_used?.message} {...register('parts_used')} />
      <TextAreaField label="Notes" error={errors.notes?.message} {...register('notes')} />
    </FormDialog>
  );
}
