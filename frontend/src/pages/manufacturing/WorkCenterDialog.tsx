import { useQueryClient } from '@tanstack/react-query';
import { CheckboxField, SelectField, TextAreaField, TextField } from '../../components/Field';
import { FormDialog, useZodForm } from '../../components/FormDialog';
import { Badge } from '../../components/States';
import { useToast } from '../../components/Toast';
import { humanize } from '../../lib/format';
import { STATUS_TONE } from '../printers/printerStatus';
import { CENTER_TYPES, productionApi, workCenterSchema, type WorkCenter, type WorkCenterCreate, type WorkCenterForm } from '../production/productionApi';
import { queryKeys } from '../../api/queryKeys';

const EMPTY: WorkCenterForm = { code: '', name: '', center_type: 'printer_pool', hourly_rate: '0', description: '', active: true };

function toForm(w: WorkCenter): WorkCenterForm {
  return { code: w.code, name: w.name, center_type: w.center_type, hourly_rate: String(Number(w.hourly_rate)), description: w.description ?? '', active: w.active };
}

export function workCenterBody(v: WorkCenterForm): WorkCenterCreate {
  return {
    code: v.code.trim(),
    name: v.name.trim(),
    center_type: v.center_type,
    hourly_rate: v.hourly_rate.trim() || '0',
    description: v.description.trim() || null,
    active: v.active,
  };
}

/** The printers that are this work center's resources; a printer joins one from its own form. */
export function WorkCenterPrinters({ printers }: { printers: WorkCenter['printers'] }) {
  return (
    <fieldset className="fieldset">
      <legend>Printers</legend>
      {printers.length === 0 ? (
        <p className="muted">No printers yet. Choose this work center in a printer's form on the Printers page.</p>
      ) : (
        <table className="table table--compact" aria-label="Printers of this work center">
          <thead>
            <tr>
              <th scope="col">Code</th>
              <th scope="col">Printer</th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {printers.map((p) => (
              <tr key={p.id}>
                <td className="mono">{p.code}</td>
                <td>{p.name}</td>
                <td>
                  <Badge tone={STATUS_TONE[p.status] ?? 'neutral'}>{humanize(p.status)}</Badge>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </fieldset>
  );
}

/** Creates a work center, or edits `editing` when given. */
export function WorkCenterDialog({ open, editing, onClose }: { open: boolean; editing: WorkCenter | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const form = useZodForm(workCenterSchema, { values: editing ? toForm(editing) : EMPTY });
  const {
    register,
    formState: { errors },
  } = form;
  return (
    <FormDialog
      form={form}
      open={open}
      onClose={onClose}
      resetTo={EMPTY}
      title={editing ? `Edit ${editing.code}` : 'New work center'}
      description="A printer pool, post-processing bench, QC or packing station."
      id="work-center-form"
      label={editing ? 'Edit work center' : 'New work center'}
      submitLabel={editing ? 'Save' : 'Create'}
      submit={(v) => (editing ? productionApi.updateWorkCenter(editing.id, workCenterBody(v)) : productionApi.createWorkCenter(workCenterBody(v)))}
      onSuccess={async (w) => {
        toast.success(editing ? 'Work center saved' : 'Work center created', `${w.code} · ${w.name}`);
        await queryClient.invalidateQueries({ queryKey: queryKeys.production.all });
      }}
      fields={['code', 'name', 'center_type', 'hourly_rate', 'description', 'active']}
    >
      <div className="form__grid">
        <TextField label="Code" required placeholder="PRINT-POOL" error={errors.code?.message} {...register('code')} />
        <TextField label="Name" required placeholder="Print farm" error={errors.name?.message} {...register('name')} />
        <SelectField
          label="Type"
          required
          options={CENTER_TYPES.map((t) => ({ value: t, label: humanize(t) }))}
          error={errors.center_type?.message}
          {...register('center_type')}
        />
        <TextField label="Hourly rate" inputMode="decimal" hint="Labor and overhead per hour, for costing." error={errors.hourly_rate?.message} {...register('hourly_rate')} />
      </div>
      <TextAreaField label="Description" error={errors.description?.message} {...register('description')} />
      <CheckboxField label="Active" hint="Inactive work centers are left out of new routings." {...register('active')} />
      {editing && <WorkCenterPrinters printers={editing.printers} />}
    </FormDialog>
  );
}
