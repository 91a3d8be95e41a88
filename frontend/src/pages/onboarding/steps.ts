export type StepKey = 'account' | 'example' | 'products' | 'customers' | 'orders' | 'inventory' | 'complete';

export interface StepDef {
  n: number;
  key: StepKey;
  title: string;
  summary: string;
  optional: boolean;
}

/** The seven steps of spec 1.4 / CONTRACT 7 (OLD STEPS, ACCOUNT=1 … COMPLETE=7). */
export const STEPS: StepDef[] = [
  { n: 1, key: 'account', title: 'Create your account', summary: 'The first administrator', optional: false },
  { n: 2, key: 'example', title: 'Example data', summary: 'Sample items and materials', optional: true },
  { n: 3, key: 'products', title: 'Import products', summary: 'Your catalogue from CSV', optional: true },
  { n: 4, key: 'customers', title: 'Import customers', summary: 'Customer list from CSV', optional: true },
  { n: 5, key: 'orders', title: 'Import orders', summary: 'Past or open orders', optional: true },
  { n: 6, key: 'inventory', title: 'Import inventory', summary: 'Stock on hand', optional: true },
  { n: 7, key: 'complete', title: 'All set', summary: 'Go to your dashboard', optional: false },
];

export type StepOutcome = 'done' | 'skipped';

export interface WizardState {
  step: number;
  outcomes: Record<number, StepOutcome>;
  /** Short notes for the final summary, per step. */
  notes: Record<number, string>;
}

const KEY = 'strataOnboarding';

export function loadWizard(): WizardState {
  try {
    const raw = window.sessionStorage.getItem(KEY);
    if (raw) {
      const parsed = JSON.parse(raw) as WizardState;
      if (typeof parsed.step === 'number' && parsed.step >= 1 && parsed.step <= 7) return parsed;
    }
  } catch {
    /* ignore */
  }
  return { step: 1, outcomes: {}, notes: {} };
}

export function saveWizard(state: WizardState | null): void {
  try {
    if (state) window.sessionStorage.setItem(KEY, JSON.stringify(state));
    else window.sessionStorage.removeItem(KEY);
  } catch {
    /* ignore */
  }
}
