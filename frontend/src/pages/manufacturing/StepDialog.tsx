import { useQueryClient } from '@tanstack/react-query';
import { useWatch } from 'react-hook-form';
import { Field, SelectField, TextAreaField, TextField } from '../../components/Field';
import { FormDialog, useZodForm } from '../../components/FormDialog';
import { useToast } from '../../components/Toast';
import { queryKeys } from '../../api/queryKeys';
import type { WorkCenter } from '../production/productionApi';
import {
  EMPTY_STEP,
  groupOperationTypes,
  routingApi,
  stepBody,
  stepSchema,
  stepToForm,
  type OperationType,
  type RoutingStep,
  type StepForm,
} from './routingApi';

const FIELDS = [
  'operation_type',
  'operation_code',
  'operation_name',
  'work_center_id',
  'setup_minutes',
  'run_minutes',
  'wait_minutes',
  'move_minutes',
  'units_per_cycle',
  'scrap_rate_percent',
  'notes',
] as const;

/** The operation-type picker: the active types grouped by category. */
export function OperationTypeSelect({
  types,
  loading,
  ...select
}: React.SelectHTMLAttributes<HTMLSelectElement> & { ref?: React.Ref<HTMLSelectElement>; types: readonly OperationType[]; loading?: boolean }) {
  return (
    <select className="input input--select" {...select}>
      <option value="">{loading ? 'Loading types…' : 'No type'}</option>
      {groupOperationTypes(types).map((g) => (
        <optgroup key={g.category} label={g.label}>
          {g.types.map((t) => (
            <option key={t.code} value={t.code}>
              {t.label}
            </option>
          ))}
        </optgroup>
      ))}
    </select>
  );
}

interface StepDialogProps {
  open: boolean;
  routingId: number;
  /** The step being changed; null adds one at the end. */
  editing: RoutingStep | null;
  operationTypes: readonly OperationType[];
  typesLoading?: boolean;
  workCenters: readonly WorkCenter[];
  onClose: () => void;
}

/** Adds a step to a routing (last), or changes one: POST /routings/{id}/operations, PUT /routings/operations/{id}. */
export function StepDialog({ open, routingId, editing, operationTypes, typesLoading, workCenters, onClose }: StepDialogProps) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const form = useZodForm(stepSchema, { values: editing ? stepToForm(editing) : EMPTY_STEP });
  const {
    register,
    control,
    getValues,
    setValue,
    formState: { errors },
  } = form;
  const typeField = register('operation_type');
  // A step's work center may be inactive now: keep it in the list so the step still shows it.
  const centers = workCenters.map((w) => ({ value: String(w.id), label: `${w.code} · ${w.name}` }));
  if (editing && !workCenters.some((w) => w.id === editing.work_center_id))
    centers.push({ value: String(editing.work_center_id), label: `${editing.work_center_code ?? `#${editing.work_center_id}`} · ${editing.work_center_name ?? ''} (inactive)` });
  const typeCode = useWatch({ control, name: 'operation_type' });
  const chosen = operationTypes.find((t) => t.code === typeCode);

  return (
    <FormDialog
      form={form}
      open={open}
      onClose={onClose}
      resetTo={EMPTY_STEP}
      size="lg"
      title={editing ? `Edit step ${editing.operation_code}` : 'Add step'}
      description={editing ? `Step ${editing.sequence} of the routing.` : 'It goes after the last step; drag it or use the arrows to move it.'}
      id="routing-step-form"
      label={editing ? 'Edit step' : 'Add step'}
      submitLabel={editing ? 'Save step' : 'Add step'}
      submit={(v: StepForm) => (editing ? routingApi.updateStep(editing.id, stepBody(v, true)) : routingApi.addStep(routingId, stepBody(v, false)))}
      onSuccess={async (s) => {
        toast.success(editing ? 'Step saved' : 'Step added', `${s.sequence} · ${s.operation_code} · ${s.operation_name}`);
        await queryClient.invalidateQueries({ queryKey: queryKeys.production.routingsAll });
      }}
      fields={FIELDS}
    >
      <div className="form__grid form__grid--3">
        <Field label="Operation type" hint={chosen?.description ?? 'Says when its materials leave stock and whether it is an inspection.'} error={errors.operation_type?.message}>
          <OperationTypeSelect
            types={operationTypes}
            loading={typesLoading}
            {...typeField}
            onChange={(e) => {
              const before = operationTypes.find((t) => t.code === getValues('operation_type'));
              const next = operationTypes.find((t) => t.code === e.target.value);
              // A name still the old type's label follows the type; a default work center fills an empty choice.
              const name = getValues('operation_name').trim();
              if (next && (name === '' || name === before?.label)) setValue('operation_name', next.label);
              if (next?.default_work_center_id && !getValues('work_center_id')) setValue('work_center_id', String(next.default_work_center_id));
              return typeField.onChange(e);
            }}
          />
        </Field>
        <TextField
          label="Code"
          className="field--mono"
          placeholder={chosen ? 'From the type' : 'PRINT'}
          hint={editing ? undefined : 'Blank: the type’s (FDM Print is PRINT).'}
          error={errors.operation_code?.message}
          {...register('operation_code')}
        />
        <TextField label="Name" placeholder={chosen?.label ?? '3D print'} error={errors.operation_name?.message} {...register('operation_name')} />
      </div>
      <div className="form__grid form__grid--3">
        <SelectField
          label="Work center"
          required
          placeholder={workCenters.length ? 'Choose' : 'Create a work center first'}
          options={centers}
          error={errors.work_center_id?.message}
          {...register('work_center_id')}
        />
        <TextField label="Units per cycle" inputMode="numeric" hint="Parts one run makes (a plate)." error={errors.units_per_cycle?.message} {...register('units_per_cycle')} />
        <TextField label="Scrap rate %" inputMode="decimal" error={errors.scrap_rate_percent?.message} {...register('scrap_rate_percent')} />
      </div>
      <div className="form__grid form__grid--4">
        <TextField label="Setup minutes" inputMode="decimal" hint="Per order." error={errors.setup_minutes?.message} {...register('setup_minutes')} />
        <TextField label="Run minutes" inputMode="decimal" hint="Per unit." error={errors.run_minutes?.message} {...register('run_minutes')} />
        <TextField label="Wait minutes" inputMode="decimal" hint="Cooling, curing." error={errors.wait_minutes?.message} {...register('wait_minutes')} />
        <TextField label="Move minutes" inputMode="decimal" hint="To the next step." error={errors.move_minutes?.message} {...register('move_minutes')} />
      </div>
      <TextAreaField label="Notes" error={errors.notes?.message} {...register('notes')} />
    </FormDialog>
  );
}
