import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { errorMessage } from '../../api/errors';
import { queryKeys } from '../../api/queryKeys';
import { useAuth } from '../../auth/AuthContext';
import { isAdmin } from '../../auth/roles';
import { Button } from '../../components/Button';
import { FormError } from '../../components/Field';
import { Badge, ErrorState, Skeleton } from '../../components/States';
import { useToast } from '../../components/Toast';
import { GATE_ACTIONS, QUALITY_MODES, qualityApi, type GateAction, type QualityMode, type QualityPolicy } from './qualityApi';
import './quality.css';

interface ChoiceProps<T extends string> {
  name: string;
  legend: string;
  options: readonly { value: T; label: string; help: string }[];
  value: T;
  onChange: (v: T) => void;
  disabled?: boolean;
  note?: string;
}

/** A radio group drawn as cards, each with its one-line explanation. */
function Choice<T extends string>({ name, legend, options, value, onChange, disabled, note }: ChoiceProps<T>) {
  return (
    <fieldset className="fieldset quality-choice" disabled={disabled}>
      <legend>{legend}</legend>
      {note && <p className="field__hint">{note}</p>}
      <div className="quality-choice__options">
        {options.map((o) => (
          <label key={o.value} className={`quality-choice__option${value === o.value ? ' is-active' : ''}`}>
            <input type="radio" name={name} value={o.value} checked={value === o.value} onChange={() => onChange(o.value)} />
            <span>
              <strong>{o.label}</strong>
              <span className="quality-choice__help">{o.help}</span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/**
 * Settings → Quality: the quality mode and the inspection gate (only in full mode), read
 * from GET /quality/policy and saved as two typed settings. Operators see it read-only.
 */
export function QualityPolicyCard() {
  const { user } = useAuth();
  const policy = useQuery({ queryKey: queryKeys.quality.policy(), queryFn: ({ signal }) => qualityApi.policy(signal) });
  return (
    <section className="card settings-card" aria-labelledby="quality-settings-title">
      <header className="settings-card__head">
        <h2 className="card__title" id="quality-settings-title">
          Quality
        </h2>
        <p className="muted small">How inspections work on the floor, and whether they hold up completion and shipping.</p>
      </header>
      {policy.isPending ? (
        <Skeleton height={120} />
      ) : policy.error ? (
        <ErrorState error={policy.error} onRetry={() => void policy.refetch()} compact />
      ) : (
        <PolicyForm key={`${policy.data.mode}-${policy.data.gate_action}`} policy={policy.data} canEdit={isAdmin(user)} />
      )}
    </section>
  );
}

function PolicyForm({ policy, canEdit }: { policy: QualityPolicy; canEdit: boolean }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [mode, setMode] = useState<QualityMode>(policy.mode);
  const [gate, setGate] = useState<GateAction>(policy.gate_action);
  const [error, setError] = useState<string | null>(null);
  const changed = mode !== policy.mode || gate !== policy.gate_action;
  const save = useMutation({
    mutationFn: async () => {
      if (mode !== policy.mode) await qualityApi.setSetting('quality_mode', mode);
      if (gate !== policy.gate_action) await qualityApi.setSetting('quality_gate_action', gate);
    },
    onSuccess: async () => {
      setError(null);
      toast.success('Quality policy saved', `Mode ${mode}${mode === 'full' ? `, gate ${gate}` : ''}.`);
      await queryClient.invalidateQueries({ queryKey: queryKeys.quality.all });
    },
    onError: async (err) => {
      setError(errorMessage(err));
      // One of the two may have been saved.
      await queryClient.invalidateQueries({ queryKey: queryKeys.quality.policy() });
    },
  });
  return (
    <form
      className="form"
      aria-label="Quality policy"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <FormError message={error} title="The quality policy was not saved" />
      {!canEdit && (
        <p className="muted small">
          Only administrators change the quality policy. Now: <Badge tone="info">mode {policy.mode}</Badge> <Badge tone="neutral">gate {policy.gate_action}</Badge>
        </p>
      )}
      <Choice name="quality_mode" legend="Quality mode" options={QUALITY_MODES} value={mode} onChange={setMode} disabled={!canEdit} />
      <Choice
        name="quality_gate_action"
        legend="Inspection gate"
        options={GATE_ACTIONS}
        value={gate}
        onChange={setGate}
        disabled={!canEdit || mode !== 'full'}
        note={mode !== 'full' ? 'The gate applies in full mode only.' : undefined}
      />
      {canEdit && (
        <div className="quality-choice__actions">
          <Button type="submit" variant="primary" loading={save.isPending} disabled={!changed}>
            Save quality policy
          </Button>
        </div>
      )}
    </form>
  );
}
