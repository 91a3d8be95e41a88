import { Fragment, useState, type DragEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ArrowDown, ArrowUp, ChevronDown, ChevronRight, GripVertical, ListOrdered, Pencil, Plus, Trash2 } from 'lucide-react';
import { errorMessage } from '../../api/errors';
import { queryKeys } from '../../api/queryKeys';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { EmptyState } from '../../components/States';
import { useToast } from '../../components/Toast';
import { formatMoney, formatQty } from '../../lib/format';
import type { WorkCenter } from '../production/productionApi';
import { moveId, resequence, routingApi, stepsInOrder, type OperationType, type Routing, type RoutingStep } from './routingApi';
import { StepDialog } from './StepDialog';
import { StepMaterials } from './StepMaterials';

const COLUMNS = 11;

interface RoutingStepsProps {
  routing: Routing;
  workCenters: readonly WorkCenter[];
  operationTypes: readonly OperationType[];
  typesLoading?: boolean;
}

/**
 * A routing's steps in sequence, each changed on its own through the step routes: add, edit,
 * delete (confirmed), reorder by dragging a row or with its up and down buttons (new
 * sequence numbers 10, 20, 30... PUT one step at a time), and each step's materials in a
 * panel that opens under it.
 */
export function RoutingSteps({ routing, workCenters, operationTypes, typesLoading }: RoutingStepsProps) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [dialog, setDialog] = useState<{ editing: RoutingStep | null } | null>(null);
  const [deleting, setDeleting] = useState<RoutingStep | null>(null);
  const [expanded, setExpanded] = useState<ReadonlySet<number>>(new Set());
  const [order, setOrder] = useState<number[] | null>(null);
  const [dragging, setDragging] = useState<number | null>(null);
  const [over, setOver] = useState<number | null>(null);
  const [announcement, setAnnouncement] = useState('');

  const saved = stepsInOrder(routing.operations);
  const byId = new Map(saved.map((s) => [s.id, s]));
  const steps = order ? order.map((id) => byId.get(id)).filter((s): s is RoutingStep => s !== undefined) : saved;
  const typeLabel = new Map(operationTypes.map((t) => [t.code, t.label]));

  const invalidate = () => queryClient.invalidateQueries({ queryKey: queryKeys.production.routingsAll });
  const reorder = useMutation({
    mutationFn: (ids: number[]) => routingApi.reorder(resequence(saved, ids)),
    onMutate: (ids) => setOrder(ids),
    onError: (err) => toast.error('The steps were not reordered', errorMessage(err)),
    onSettled: async () => {
      await invalidate();
      setOrder(null);
    },
  });
  const remove = useMutation({
    mutationFn: (s: RoutingStep) => routingApi.deleteStep(s.id),
    onSuccess: async (_, s) => {
      toast.success('Step deleted', `${s.operation_code} · ${s.operation_name}`);
      setDeleting(null);
      await invalidate();
    },
    onError: (err) => toast.error('The step was not deleted', errorMessage(err)),
  });

  const move = (id: number, to: number) => {
    const ids = steps.map((s) => s.id);
    const next = moveId(ids, id, to);
    if (next.every((x, i) => x === ids[i])) return;
    const s = byId.get(id);
    setAnnouncement(`${s?.operation_code ?? 'Step'} moved to position ${next.indexOf(id) + 1} of ${next.length}.`);
    reorder.mutate(next);
  };
  const toggle = (id: number) =>
    setExpanded((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const dragProps = (s: RoutingStep, index: number) => ({
    draggable: !reorder.isPending,
    onDragStart: (e: DragEvent<HTMLTableRowElement>) => {
      e.dataTransfer.effectAllowed = 'move';
      e.dataTransfer.setData('text/plain', String(s.id));
      setDragging(s.id);
    },
    onDragOver: (e: DragEvent<HTMLTableRowElement>) => {
      if (dragging === null) return;
      e.preventDefault();
      e.dataTransfer.dropEffect = 'move';
      if (over !== s.id) setOver(s.id);
    },
    onDrop: (e: DragEvent<HTMLTableRowElement>) => {
      e.preventDefault();
      const from = dragging ?? Number(e.dataTransfer.getData('text/plain'));
      setDragging(null);
      setOver(null);
      if (from && from !== s.id) move(from, index);
    },
    onDragEnd: () => {
      setDragging(null);
      setOver(null);
    },
  });

  return (
    <>
      <div className="routing-editor__bar">
        <h3 className="section-subtitle">Steps</h3>
        <Button size="sm" variant="primary" icon={<Plus size={14} />} onClick={() => setDialog({ editing: null })}>
          Add step
        </Button>
      </div>
      {steps.length === 0 ? (
        <EmptyState
          compact
          icon={<ListOrdered size={22} />}
          title="No steps yet"
          description={workCenters.length === 0 ? 'Create a work center first, then add the steps a production order goes through.' : 'Add the steps a production order goes through, or apply a template.'}
        />
      ) : (
        <div className={`datatable__scroll${reorder.isPending ? ' is-fetching' : ''}`} aria-busy={reorder.isPending || undefined}>
          <table className="table table--compact routing-steps" aria-label="Steps">
            <thead>
              <tr>
                <th scope="col">
                  <span className="sr-only">Drag to reorder</span>
                </th>
                <th scope="col">#</th>
                <th scope="col" className="hide-tablet">
                  Type
                </th>
                <th scope="col">Code</th>
                <th scope="col">Operation</th>
                <th scope="col">Work center</th>
                <th scope="col" className="align-right">
                  Setup
                </th>
                <th scope="col" className="align-right">
                  Run
                </th>
                <th scope="col" className="align-right hide-tablet">
                  Wait
                </th>
                <th scope="col" className="align-right">
                  Cost
                </th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {steps.map((s, i) => {
                const open = expanded.has(s.id);
                const panelId = `step-materials-${s.id}`;
                const classes = [dragging === s.id ? 'is-dragging' : '', over === s.id && dragging !== s.id ? 'is-drop-target' : ''].filter(Boolean).join(' ');
                return (
                  <Fragment key={s.id}>
                    <tr className={classes || undefined} data-testid="routing-step" data-step-id={s.id} {...dragProps(s, i)}>
                      <td className="routing-steps__grip" aria-hidden="true">
                        <GripVertical size={16} />
                      </td>
                      <td className="num muted">{order ? (i + 1) * 10 : s.sequence}</td>
                      <td className="hide-tablet">{s.operation_type ? (typeLabel.get(s.operation_type) ?? s.operation_type) : '—'}</td>
                      <td className="mono">{s.operation_code}</td>
                      <td>
                        <div className="cell-stack">
                          <span className="cell-strong">{s.operation_name}</span>
                          {Number(s.total_time_minutes) > 0 && <span className="cell-sub">{formatQty(s.total_time_minutes)} min in all</span>}
                        </div>
                      </td>
                      <td>{s.work_center_code ? `${s.work_center_code}` : `#${s.work_center_id}`}</td>
                      <td className="align-right num">{formatQty(s.setup_time_minutes)}</td>
                      <td className="align-right num">
                        {formatQty(s.run_time_minutes)}
                        {s.runtime_source === 'slicer' && <span className="cell-sub"> slicer</span>}
                      </td>
                      <td className="align-right num hide-tablet">{formatQty(s.wait_time_minutes)}</td>
                      <td className="align-right num">{formatMoney(s.calculated_cost)}</td>
                      <td className="shrink">
                        <div className="row-actions">
                          <Button
                            size="sm"
                            variant="ghost"
                            icon={open ? <ChevronDown size={14} /> : <ChevronRight size={14} />}
                            aria-expanded={open}
                            aria-controls={open ? panelId : undefined}
                            aria-label={`Materials of ${s.operation_code}`}
                            onClick={() => toggle(s.id)}
                          />
                          <Button size="sm" variant="ghost" icon={<ArrowUp size={14} />} aria-label={`Move ${s.operation_code} up`} disabled={i === 0 || reorder.isPending} onClick={() => move(s.id, i - 1)} />
                          <Button
                            size="sm"
                            variant="ghost"
                            icon={<ArrowDown size={14} />}
                            aria-label={`Move ${s.operation_code} down`}
                            disabled={i === steps.length - 1 || reorder.isPending}
                            onClick={() => move(s.id, i + 1)}
                          />
                          <Button size="sm" variant="ghost" icon={<Pencil size={14} />} aria-label={`Edit ${s.operation_code}`} onClick={() => setDialog({ editing: s })} />
                          <Button size="sm" variant="ghost" icon={<Trash2 size={14} />} aria-label={`Delete ${s.operation_code}`} onClick={() => setDeleting(s)} />
                        </div>
                      </td>
                    </tr>
                    {open && (
                      <tr className="routing-steps__panel" id={panelId}>
                        <td colSpan={COLUMNS}>
                          <StepMaterials step={s} />
                        </td>
                      </tr>
                    )}
                  </Fragment>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <p className="sr-only" aria-live="polite">
        {announcement}
      </p>
      <StepDialog
        open={dialog !== null}
        routingId={routing.id}
        editing={dialog?.editing ?? null}
        operationTypes={operationTypes}
        typesLoading={typesLoading}
        workCenters={workCenters}
        onClose={() => setDialog(null)}
      />
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete step ${deleting?.operation_code ?? ''}?`}
        message={deleting && `${deleting.operation_name} leaves ${routing.code}. Production orders already made from it keep it.`}
        confirmLabel="Delete step"
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onCancel={() => setDeleting(null)}
      />
    </>
  );
}
