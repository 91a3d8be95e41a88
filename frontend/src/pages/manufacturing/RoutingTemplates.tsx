import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useWatch } from 'react-hook-form';
import { LayoutTemplate, Sprout } from 'lucide-react';
import { errorMessage } from '../../api/errors';
import { queryKeys } from '../../api/queryKeys';
import { Button } from '../../components/Button';
import { FormError, SelectField, TextField } from '../../components/Field';
import { FormDialog, useZodForm } from '../../components/FormDialog';
import { useToast } from '../../components/Toast';
import { formatMoney, formatQty } from '../../lib/format';
import { applyTemplateBody, applyTemplateSchema, printStepCode, routingApi, routingMinutes, type ApplyTemplateForm, type Routing, type TemplateApplied } from './routingApi';

const EMPTY: ApplyTemplateForm = { template_id: '', print_minutes: '' };

interface ApplyTemplateDialogProps {
  open: boolean;
  productId: number;
  templates: readonly Routing[];
  /** The product's active routing, whose steps a template replaces. */
  active: Routing | undefined;
  onClose: () => void;
  onApplied: (applied: TemplateApplied) => void;
}

/** POST /routings/apply-template: a template's steps onto the product's active routing (or a new one), with an optional print time. */
export function ApplyTemplateDialog({ open, productId, templates, active, onClose, onApplied }: ApplyTemplateDialogProps) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const form = useZodForm(applyTemplateSchema, { defaultValues: EMPTY });
  const {
    register,
    control,
    formState: { errors },
  } = form;
  const templateId = useWatch({ control, name: 'template_id' });
  const template = templates.find((t) => String(t.id) === templateId);
  const printCode = printStepCode(template);
  const replaced = active?.operations.length ?? 0;

  return (
    <FormDialog
      form={form}
      open={open}
      onClose={onClose}
      title="Apply template"
      description="A standard flow copied onto this product, steps and materials included."
      id="apply-template-form"
      label="Apply template"
      submitLabel="Apply template"
      errorTitle="The template was not applied"
      submit={(v) => routingApi.applyTemplate(applyTemplateBody(v, productId, template))}
      onSuccess={async (applied) => {
        toast.success('Template applied', `${applied.message}: ${applied.routing_code} has ${applied.operations.length} step${applied.operations.length === 1 ? '' : 's'}.`);
        await queryClient.invalidateQueries({ queryKey: queryKeys.production.routingsAll });
        onApplied(applied);
      }}
      fields={['template_id', 'print_minutes']}
    >
      <SelectField
        label="Template"
        required
        placeholder="Choose a template"
        options={templates.map((t) => ({ value: String(t.id), label: `${t.code} · ${t.name}` }))}
        error={errors.template_id?.message}
        {...register('template_id')}
      />
      {template && (
        <p className="muted" data-testid="template-summary">
          {template.operations.map((o) => o.operation_code).join(' → ') || 'No steps'} · {formatQty(routingMinutes(template).total)} min · {formatMoney(template.total_cost)}
        </p>
      )}
      <TextField
        label="Print time (minutes per unit)"
        inputMode="decimal"
        disabled={Boolean(template) && !printCode}
        hint={
          template && !printCode
            ? 'This template has no print step.'
            : `Optional: the slicer's estimate for this product replaces the template's${printCode ? ` ${printCode}` : ''} run time.`
        }
        error={errors.print_minutes?.message}
        {...register('print_minutes')}
      />
      {replaced > 0 && (
        <div className="alert alert--warning" role="note">
          <span>
            The {replaced} step{replaced === 1 ? '' : 's'} of {active?.code} will be replaced by the template’s.
          </span>
        </div>
      )}
    </FormDialog>
  );
}

/** The routing templates (GET /routings/?templates_only=true). */
export function useRoutingTemplates() {
  return useQuery({ queryKey: queryKeys.production.routingTemplates(), queryFn: ({ signal }) => routingApi.templates(signal) });
}

/**
 * "Apply template" and, while there are no templates, "Seed standard templates"
 * (POST /routings/seed-templates; the server's sentence shows when work centers are missing).
 */
export function TemplateActions({ productId, active, onApplied }: { productId: number; active: Routing | undefined; onApplied: (applied: TemplateApplied) => void }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [open, setOpen] = useState(false);
  const templates = useRoutingTemplates();
  const seed = useMutation({
    mutationFn: () => routingApi.seedTemplates(),
    onSuccess: async (r) => {
      toast.success('Templates seeded', r.created.length ? `Created ${r.created.join(', ')}.` : r.message);
      await queryClient.invalidateQueries({ queryKey: queryKeys.production.routingsAll });
    },
  });
  const none = templates.data !== undefined && templates.data.length === 0;
  return (
    <>
      <Button icon={<LayoutTemplate size={16} />} disabled={!templates.data?.length} onClick={() => setOpen(true)} title={none ? 'No templates yet' : undefined}>
        Apply template
      </Button>
      {none && (
        <Button icon={<Sprout size={16} />} loading={seed.isPending} onClick={() => seed.mutate()}>
          Seed standard templates
        </Button>
      )}
      {templates.error && <span className="text-danger">Templates: {errorMessage(templates.error)}</span>}
      {seed.error && (
        <div className="routing-editor__alert">
          <FormError title="Templates were not seeded" message={errorMessage(seed.error)} />
        </div>
      )}
      <ApplyTemplateDialog open={open} productId={productId} templates={templates.data ?? []} active={active} onClose={() => setOpen(false)} onApplied={onApplied} />
    </>
  );
}
