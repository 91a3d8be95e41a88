import type { Decimal } from '../../api/model';
import { weightBar } from './spoolWeight';

const TONE_LABEL = { ok: '', low: 'Low', empty: 'Empty' } as const;

/** Current / initial grams as a bar, coloured when the spool runs low or is empty. */
export function WeightBar({ spool }: { spool: { current_weight_kg: Decimal; initial_weight_kg: Decimal; status?: string; is_low?: boolean; is_empty?: boolean } }) {
  const b = weightBar(spool);
  return (
    <div className={`weight-bar weight-bar--${b.tone}`} data-tone={b.tone}>
      <div className="weight-bar__track" role="meter" aria-label={`Remaining weight: ${b.label}`} aria-valuemin={0} aria-valuemax={100} aria-valuenow={b.percent}>
        <span className="weight-bar__fill" style={{ width: `${b.percent}%` }} />
      </div>
      <span className="weight-bar__text">
        <span>{b.label}</span>
        {TONE_LABEL[b.tone] && <strong>{TONE_LABEL[b.tone]}</strong>}
      </span>
    </div>
  );
}
