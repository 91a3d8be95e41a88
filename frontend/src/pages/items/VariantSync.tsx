import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CheckCircle2, RefreshCw } from 'lucide-react';
import { errorMessage } from '../../api/errors';
import { queryKeys } from '../../api/queryKeys';
import { Button } from '../../components/Button';
import { FormError } from '../../components/Field';
import { Modal } from '../../components/Modal';
import { Badge, Skeleton } from '../../components/States';
import { useToast } from '../../components/Toast';
import { variantsApi, variantsWord, type VariantSync } from './variantsApi';

/**
 * The variants a sync would rewrite, and those already in step with the template; the
 * rewritten ones grouped by what changes (usually every variant changes the same way).
 */
export function splitPreview(preview: VariantSync) {
  const changing = preview.variants.filter((v) => v.changes.length > 0);
  const inStep = preview.variants.filter((v) => v.changes.length === 0);
  const groups = new Map<string, { changes: string[]; skus: string[] }>();
  for (const v of changing) {
    const key = JSON.stringify(v.changes);
    const g = groups.get(key) ?? { changes: v.changes, skus: [] };
    g.skus.push(v.sku);
    groups.set(key, g);
  }
  return { changing, inStep, groups: [...groups.values()] };
}

/**
 * "Sync routing to variants": asks the server what each variant's routing would change
 * (a dry run), shows it, and applies it on request; the result names what could not be synced.
 */
export function SyncRoutingButton({ itemId, sku, variantCount }: { itemId: number; sku: string; variantCount: number }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        icon={<RefreshCw size={16} />}
        disabled={variantCount === 0}
        title={variantCount === 0 ? 'Make variants first: then their routings can follow this item’s.' : undefined}
        onClick={() => setOpen(true)}
      >
        Sync routing to variants
      </Button>
      {open && <SyncRoutingDialog itemId={itemId} sku={sku} onClose={() => setOpen(false)} />}
    </>
  );
}

function SyncRoutingDialog({ itemId, sku, onClose }: { itemId: number; sku: string; onClose: () => void }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [applied, setApplied] = useState<VariantSync | null>(null);
  const [error, setError] = useState<string | null>(null);
  // The preview is a dry run: read when the dialog opens, written nowhere.
  const dryRun = useQuery({
    queryKey: queryKeys.items.variantSyncPreview(itemId),
    queryFn: () => variantsApi.syncRouting(itemId, true),
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
  const preview = dryRun.data ?? null;
  const apply = useMutation({
    mutationFn: () => variantsApi.syncRouting(itemId, false),
    onMutate: () => setError(null),
    onSuccess: async (r) => {
      setApplied(r);
      if (r.errors.length === 0) toast.success('Routings synced', `${r.synced} of ${variantsWord(r.total)} now follow ${sku}.`);
      else toast.error('Some routings were not synced', `${r.errors.length} could not be synced; the others were.`);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.items.all }),
        queryClient.invalidateQueries({ queryKey: queryKeys.production.routingsAll }),
      ]);
    },
    onError: (err) => setError(errorMessage(err)),
  });
  const split = preview ? splitPreview(preview) : null;
  const footer = applied ? (
    <Button variant="primary" onClick={onClose}>
      Done
    </Button>
  ) : (
    <>
      <Button variant="secondary" onClick={onClose} disabled={apply.isPending}>
        {split && split.changing.length === 0 ? 'Close' : 'Cancel'}
      </Button>
      {split && split.changing.length > 0 && (
        <Button variant="primary" loading={apply.isPending} onClick={() => apply.mutate()}>
          Apply to {variantsWord(split.changing.length)}
        </Button>
      )}
    </>
  );
  return (
    <Modal open size="md" title="Sync routing to variants" description={`${sku}’s active routing, copied onto each variant with its own material.`} onClose={apply.isPending ? () => undefined : onClose} footer={footer}>
      <div className="variant-sync">
        <FormError title="The routings were not synced" message={error ?? (dryRun.error ? errorMessage(dryRun.error) : null)} />
        {applied ? (
          <SyncResult result={applied} />
        ) : dryRun.isPending ? (
          <div aria-busy="true" className="variant-sync__loading">
            <Skeleton height={16} width="60%" />
            <Skeleton height={48} />
          </div>
        ) : (
          split &&
          preview && (
            <>
              <p className="variant-sync__lead" role="status">
                {split.changing.length === 0
                  ? `All ${variantsWord(preview.total)} already follow the template: nothing to sync.`
                  : `${split.changing.length} of ${variantsWord(preview.total)} would change. Nothing is written until you apply.`}
              </p>
              {split.changing.length > 0 && (
                <ul className="variant-sync__list" aria-label="Variants that would change">
                  {split.groups.map((g) => (
                    <li key={g.skus.join(',')}>
                      <ul className="variant-sync__changes">
                        {g.changes.map((c) => (
                          <li key={c}>{c}</li>
                        ))}
                      </ul>
                      <div className="variant-sync__skus">
                        <span className="cell-sub">{g.skus.length === 1 ? 'For' : `For these ${g.skus.length}:`}</span>
                        {g.skus.map((sku) => (
                          <span key={sku} className="mono variant-sync__sku">
                            {sku}
                          </span>
                        ))}
                      </div>
                    </li>
                  ))}
                </ul>
              )}
              {split.inStep.length > 0 && (
                <div className="variant-sync__in-step" aria-label="Variants already in step" role="group">
                  <span className="cell-sub">Already in step:</span>
                  {split.inStep.map((v) => (
                    <Badge key={v.variant_id} tone="success">
                      {v.sku}
                    </Badge>
                  ))}
                </div>
              )}
            </>
          )
        )}
      </div>
    </Modal>
  );
}

function SyncResult({ result }: { result: VariantSync }) {
  return (
    <div className="variant-sync__result">
      <p className="variant-sync__lead" role="status">
        <CheckCircle2 size={16} className="text-success" aria-hidden="true" /> {result.synced} of {variantsWord(result.total)} synced.
      </p>
      {result.errors.length > 0 && (
        <div className="alert alert--error" role="alert">
          <div>
            <strong className="alert__title">
              {result.errors.length} could not be synced (each kept its routing)
            </strong>
            <ul className="variant-sync__errors">
              {result.errors.map((e) => (
                <li key={e}>{e}</li>
              ))}
            </ul>
          </div>
        </div>
      )}
    </div>
  );
}
