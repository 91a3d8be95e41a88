import { useQuery } from '@tanstack/react-query';
import { useWatch, type UseFormRegister } from 'react-hook-form';
import { ClipboardList } from 'lucide-react';
import { queryKeys } from '../../api/queryKeys';
import { SelectField, TextAreaField, TextField } from '../../components/Field';
import { FormDialog, useZodForm } from '../../components/FormDialog';
import { Badge, Skeleton } from '../../components/States';
import { useToast } from '../../components/Toast';
import { humanize } from '../../lib/format';
import {
  characteristicsFor,
  inspectionBody,
  inspectionSchema,
  limitsText,
  qualityApi,
  SEVERITY_TONE,
  withinSpec,
  type Answer,
  type InspectionForm,
  type PlanCharacteristic,
  type QcRecorded,
} from '../quality/qualityApi';
import { useDone } from './OrderDialogs';
import { QC_RESULT_LABEL, qcChoices, type ProductionOrder } from './productionApi';
import '../quality/quality.css';

interface QcDialogProps {
  order: ProductionOrder;
  open: boolean;
  onClose: () => void;
  /** After an inspection was recorded (not after "inspect again", which records none). */
  onRecorded?: (r: QcRecorded) => void;
}

const SAID: Record<string, string> = {
  passed: 'passed its quality check',
  failed: 'failed its quality check',
  waived: 'has its quality check waived',
  conditional: 'passed with a deviation accepted',
  pending: 'goes back for inspection',
};

/**
 * An inspection: the verdict of a complete order, or (while it is released or running) an
 * in-process inspection of one of its operations. Quantities, a defect reason when it did
 * not pass, notes (required to waive or accept a deviation) and, when the policy is plan
 * driven, a row per characteristic of the product's active plan: a measured value with its
 * spec judged as it is typed, or conforms yes/no. A refusal of the inspection gate (block)
 * shows in red; its warnings (warn) come back with the result.
 */
export function QcDialog({ order, open, onClose, onRecorded }: QcDialogProps) {
  const toast = useToast();
  const done = useDone();
  const inProcess = order.status === 'released' || order.status === 'in_progress';
  const choices = qcChoices(order);
  const running = order.operations.find((o) => o.status === 'running');
  const defaults: InspectionForm = {
    result: 'passed',
    quantity_passed: '',
    quantity_failed: '',
    defect_reason_id: '',
    operation_id: inProcess && running ? String(running.id) : '',
    failure_reason: '',
    notes: '',
    answers: {},
  };
  const form = useZodForm(inspectionSchema(inProcess), { defaultValues: defaults });
  const {
    register,
    control,
    formState: { errors },
  } = form;
  const result = useWatch({ control, name: 'result' });
  const operationId = useWatch({ control, name: 'operation_id' });
  const answers = useWatch({ control, name: 'answers' }) as Record<string, Answer> | undefined;

  const policy = useQuery({ queryKey: queryKeys.quality.policy(), queryFn: ({ signal }) => qualityApi.policy(signal), enabled: open, staleTime: 60_000 });
  const planDriven = policy.data?.plan_driven === true;
  const plan = useQuery({
    queryKey: queryKeys.quality.activePlan(order.product_id),
    queryFn: ({ signal }) => qualityApi.activePlan(order.product_id, signal),
    enabled: open && planDriven,
  });
  const reasons = useQuery({ queryKey: queryKeys.quality.defectReasons(), queryFn: ({ signal }) => qualityApi.defectReasons(signal), enabled: open, staleTime: 300_000 });
  const operation = order.operations.find((o) => String(o.id) === operationId);
  const chars = planDriven ? characteristicsFor(plan.data, operation?.routing_operation_id, inProcess) : [];
  const recording = result !== 'pending';
  const gate = policy.data?.mode === 'full' ? policy.data.gate_action : 'off';

  return (
    <FormDialog
      form={form}
      open={open}
      onClose={onClose}
      resetTo={defaults}
      size={chars.length > 0 ? 'lg' : 'md'}
      title={inProcess ? `Inspect an operation of ${order.code}` : `Quality check of ${order.code}`}
      description={
        inProcess
          ? 'An in-process inspection of one step; the order carries on.'
          : order.qc_status === 'failed'
            ? 'It failed its last inspection: record a re-inspection, or send it back to be inspected again.'
            : 'The verdict on the completed order.'
      }
      id="qc-form"
      label="Quality check"
      submitLabel="Record inspection"
      errorTitle="The inspection was not recorded"
      submit={(v) => qualityApi.record(order.id, inspectionBody(v, chars))}
      onSuccess={async (r, v) => {
        toast.success('QC recorded', inProcess ? r.message : `${order.code} ${SAID[v.result] ?? 'was inspected'}.`);
        await done();
        if (r.inspection_id) onRecorded?.(r);
      }}
      fields={['result', 'quantity_passed', 'quantity_failed', 'defect_reason_id', 'operation_id', 'failure_reason', 'notes']}
    >
      <fieldset className="fieldset">
        <legend>Result</legend>
        <div className="form__row">
          {choices.map((c) => (
            <label key={c} className="checkbox">
              <input type="radio" value={c} {...register('result')} /> {QC_RESULT_LABEL[c]}
            </label>
          ))}
        </div>
        {errors.result?.message && <p className="field__error">{errors.result.message}</p>}
      </fieldset>
      {recording && (
        <>
          {(inProcess || order.operations.length > 0) && (
            <SelectField
              label={inProcess ? 'Operation inspected' : 'Operation (optional)'}
              required={inProcess}
              placeholder={inProcess ? 'Choose the operation' : 'The whole order'}
              hint={inProcess ? undefined : 'The step the verdict is about, if one.'}
              options={order.operations.map((o) => ({ value: String(o.id), label: `${o.sequence} · ${o.operation_code} · ${o.operation_name} (${humanize(o.status).toLowerCase()})` }))}
              error={errors.operation_id?.message}
              {...register('operation_id')}
            />
          )}
          <div className="form__grid">
            <TextField label="Quantity passed" inputMode="decimal" hint="Blank: all of them, unless it failed." error={errors.quantity_passed?.message} {...register('quantity_passed')} />
            <TextField label="Quantity failed" inputMode="decimal" hint="Blank: the rest." error={errors.quantity_failed?.message} {...register('quantity_failed')} />
          </div>
          {result !== 'passed' && (
            <SelectField
              label="Defect reason"
              placeholder={reasons.isPending ? 'Loading reasons…' : 'None'}
              options={(reasons.data?.details ?? []).map((r) => ({ value: String(r.id), label: `${r.name}${r.severity ? ` · ${r.severity}` : ''}` }))}
              error={errors.defect_reason_id?.message}
              {...register('defect_reason_id')}
            />
          )}
          {result === 'failed' && <TextField label="What failed" error={errors.failure_reason?.message} {...register('failure_reason')} />}
          {planDriven && (
            <Measurements
              loading={plan.isPending}
              planCode={plan.data ? `${plan.data.code} · ${plan.data.name}` : null}
              chars={chars}
              answers={answers ?? {}}
              register={register}
              errors={errors.answers as Record<string, { value?: { message?: string } }> | undefined}
              inProcess={inProcess}
              gate={gate}
            />
          )}
        </>
      )}
      <TextAreaField
        label="Notes"
        required={result === 'waived' || result === 'conditional'}
        hint={result === 'waived' ? 'Say why QC is waived.' : result === 'conditional' ? 'Say what deviation is accepted.' : undefined}
        error={errors.notes?.message}
        {...register('notes')}
      />
    </FormDialog>
  );
}

interface MeasurementsProps {
  loading: boolean;
  planCode: string | null;
  chars: readonly PlanCharacteristic[];
  answers: Record<string, Answer>;
  register: UseFormRegister<InspectionForm>;
  errors: Record<string, { value?: { message?: string } }> | undefined;
  inProcess: boolean;
  gate: string;
}

/** The plan's characteristics to answer, each judged against its spec as it is typed. */
function Measurements({ loading, planCode, chars, answers, register, errors, inProcess, gate }: MeasurementsProps) {
  if (loading) return <Skeleton height={80} />;
  if (!planCode)
    return (
      <p className="qc-plan-note">
        <ClipboardList size={16} aria-hidden="true" /> This product has no active quality plan: nothing to measure.
      </p>
    );
  if (chars.length === 0)
    return (
      <p className="qc-plan-note">
        <ClipboardList size={16} aria-hidden="true" /> Plan {planCode}: {inProcess ? 'nothing is checked at this operation.' : 'no characteristics.'}
      </p>
    );
  return (
    <section aria-labelledby="qc-measure-title">
      <h3 className="section-subtitle" id="qc-measure-title">
        Measurements · plan {planCode}
      </h3>
      {gate !== 'off' && (
        <p className="field__hint">
          A pass must answer every characteristic within spec{gate === 'block' ? ', or it is refused' : '; otherwise it is recorded with a warning'}.
        </p>
      )}
      <table className="table table--compact qc-measure" aria-label="Measurements">
        <thead>
          <tr>
            <th scope="col">Characteristic</th>
            <th scope="col">Specification</th>
            <th scope="col">Measured</th>
            <th scope="col">Verdict</th>
          </tr>
        </thead>
        <tbody>
          {chars.map((c) => {
            const key = `c${c.id}`;
            const a = answers[key];
            const label = c.code ? `${c.code} ${c.characteristic}` : c.characteristic;
            const verdict = c.characteristic_type === 'variable' ? withinSpec(a?.value, c.lower_limit, c.upper_limit) : a?.conforms === 'yes' ? true : a?.conforms === 'no' ? false : null;
            return (
              <tr key={c.id}>
                <td>
                  <div className="cell-stack">
                    <span className="cell-strong">
                      {c.code && <span className="mono">{c.code} </span>}
                      {c.characteristic}
                    </span>
                    {c.severity && (
                      <span>
                        <Badge tone={SEVERITY_TONE[c.severity]}>{c.severity}</Badge>
                      </span>
                    )}
                  </div>
                </td>
                <td className="cell-sub">
                  {c.characteristic_type === 'variable' ? (
                    <>
                      {limitsText(c.lower_limit, c.upper_limit, c.unit)}
                      {c.nominal !== null && <span className="muted"> · nominal {Number(c.nominal)}</span>}
                    </>
                  ) : (
                    (c.acceptance_criteria ?? 'Conforms')
                  )}
                </td>
                <td>
                  {c.characteristic_type === 'variable' ? (
                    <TextField label={`Measured ${label}`} inputMode="decimal" error={errors?.[key]?.value?.message} {...register(`answers.${key}.value`)} />
                  ) : (
                    <span className="qc-conforms" role="radiogroup" aria-label={`${label} conforms`}>
                      <label className="checkbox">
                        <input type="radio" value="yes" {...register(`answers.${key}.conforms`)} /> Yes
                      </label>
                      <label className="checkbox">
                        <input type="radio" value="no" {...register(`answers.${key}.conforms`)} /> No
                      </label>
                    </span>
                  )}
                </td>
                <td aria-live="polite">
                  {verdict === true ? (
                    <Badge tone="success">{c.characteristic_type === 'variable' ? 'In spec' : 'Conforms'}</Badge>
                  ) : verdict === false ? (
                    <Badge tone="danger">{c.characteristic_type === 'variable' ? 'Out of spec' : 'Nonconforming'}</Badge>
                  ) : (
                    <span className="muted">—</span>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}
