import { useQueryClient } from '@tanstack/react-query';
import { CheckboxField, TextField } from '../../components/Field';
import { FormDialog, useZodForm } from '../../components/FormDialog';
import { useToast } from '../../components/Toast';
import { queryKeys } from '../../api/queryKeys';
import { MAX_HORIZON_DAYS, RUN_DEFAULTS, planningApi, runSchema, type MrpRun, type RunBody, type RunValues } from './planningApi';

const RUN_FIELDS = ['planning_horizon_days', 'include_draft_orders', 'regenerate_planned'] as const;

/** One line about what a run found. */
export function runSummary(run: Pick<MrpRun, 'planned_orders_created' | 'shortages_found' | 'exceptions_found' | 'orders_processed'>): string {
  const n = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;
  return `${n(run.planned_orders_created, 'planned order')} created from ${n(run.orders_processed, 'open order')}; ${n(run.shortages_found, 'shortage')}, ${n(
    run.exceptions_found,
    'exception',
  )}.`;
}

/** Runs MRP (admins): the horizon, whether draft orders count, whether unfirmed suggestions are replaced. */
export function RunMrpDialog({ open, onClose, onDone }: { open: boolean; onClose: () => void; onDone?: (run: MrpRun) => void }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const form = useZodForm<RunValues, RunBody>(runSchema, { defaultValues: RUN_DEFAULTS });
  const {
    register,
    formState: { errors },
  } = form;
  return (
    <FormDialog
      form={form}
      open={open}
      onClose={onClose}
      title="Run MRP"
      description="Nets open sales and production orders against stock, open purchase orders and safety stock, and suggests what to buy and make."
      id="mrp-run-form"
      label="Run MRP"
      submitLabel="Run MRP"
      lockWhilePending
      errorTitle="MRP did not run"
      submit={(body) => planningApi.run(body)}
      onSuccess={async (run) => {
        if (run.status === 'failed') toast.error('MRP run failed', run.error_message ?? 'The run stopped before it finished.');
        else toast.success('MRP run complete', runSummary(run));
        onDone?.(run);
        await queryClient.invalidateQueries({ queryKey: queryKeys.planning.all });
      }}
      fields={RUN_FIELDS}
    >
      {({ pending }) => (
        <>
          <TextField
            label="Planning horizon (days)"
            inputMode="numeric"
            required
            hint={`Demand due within this many days is planned (1 to ${MAX_HORIZON_DAYS}).`}
            error={errors.planning_horizon_days?.message}
            disabled={pending}
            {...register('planning_horizon_days')}
          />
          <CheckboxField label="Include draft orders" hint="Count draft sales and production orders as demand." disabled={pending} {...register('include_draft_orders')} />
          <CheckboxField
            label="Regenerate planned orders"
            hint="Replace the suggestions nobody has firmed yet; firmed and released orders are kept."
            disabled={pending}
            {...register('regenerate_planned')}
          />
          {pending && (
            <div className="plan-progress" role="status" aria-live="polite">
              <span className="plan-progress__bar" aria-hidden="true">
                <span />
              </span>
              <span>Exploding BOMs and netting demand against stock… this can take a few seconds.</span>
            </div>
          )}
        </>
      )}
    </FormDialog>
  );
}
