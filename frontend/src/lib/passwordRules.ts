/**
 * Password rules of spec 5.5 (checked the same way by the server, CONTRACT 2):
 * 8+ characters, an upper-case letter, a lower-case letter, a digit and a
 * special character from the server's set.
 */
export const SPECIAL_CHARACTERS = '!@#$%^&*(),.?":{}|<>_-+=[]\\/`~';

export interface PasswordRule {
  id: 'length' | 'upper' | 'lower' | 'digit' | 'special';
  label: string;
  test: (password: string) => boolean;
}

export const PASSWORD_RULES: readonly PasswordRule[] = [
  { id: 'length', label: 'At least 8 characters', test: (p) => [...p].length >= 8 },
  { id: 'upper', label: 'An uppercase letter (A–Z)', test: (p) => /[A-Z]/.test(p) },
  { id: 'lower', label: 'A lowercase letter (a–z)', test: (p) => /[a-z]/.test(p) },
  { id: 'digit', label: 'A number (0–9)', test: (p) => /[0-9]/.test(p) },
  {
    id: 'special',
    label: 'A special character such as ! @ # $ % ^ & *',
    test: (p) => [...p].some((c) => SPECIAL_CHARACTERS.includes(c)),
  },
];

export interface RuleResult {
  id: PasswordRule['id'];
  label: string;
  ok: boolean;
}

export function checkPassword(password: string): { results: RuleResult[]; valid: boolean } {
  const results = PASSWORD_RULES.map((r) => ({ id: r.id, label: r.label, ok: r.test(password) }));
  return { results, valid: results.every((r) => r.ok) };
}

/** First unmet rule as a sentence, for a field's error text. */
export function passwordProblem(password: string): string | null {
  const failed = checkPassword(password).results.find((r) => !r.ok);
  return failed ? `Password needs ${failed.label.charAt(0).toLowerCase()}${failed.label.slice(1)}.` : null;
}
