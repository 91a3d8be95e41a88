import { describe, expect, it } from 'vitest';
import { checkPassword, passwordProblem, SPECIAL_CHARACTERS } from './passwordRules';

const ok = (pw: string) => Object.fromEntries(checkPassword(pw).results.map((r) => [r.id, r.ok]));

describe('password rules (spec 5.5)', () => {
  it('accepts a password meeting every rule', () => {
    expect(checkPassword('Abcdefg1!').valid).toBe(true);
    expect(checkPassword('Zz9_zzzz').valid).toBe(true);
  });

  it('reports each rule separately', () => {
    expect(ok('')).toEqual({ length: false, upper: false, lower: false, digit: false, special: false });
    expect(ok('abc')).toEqual({ length: false, upper: false, lower: true, digit: false, special: false });
    expect(ok('ABCDEFGH')).toEqual({ length: true, upper: true, lower: false, digit: false, special: false });
    expect(ok('abcdefg1')).toMatchObject({ upper: false, digit: true });
  });

  it('needs 8 characters: 7 is too short', () => {
    expect(checkPassword('Abcde1!').valid).toBe(false);
    expect(checkPassword('Abcdef1!').valid).toBe(true);
  });

  it('uses the server’s special-character set', () => {
    for (const c of SPECIAL_CHARACTERS) expect(checkPassword(`Abcdefg1${c}`).valid).toBe(true);
    expect(ok('Abcdefg1 ').special).toBe(false);
    expect(ok('Abcdefg1;').special).toBe(false);
  });

  it('only ASCII letters count as upper and lower case', () => {
    expect(ok('ÉÀÜÖÄ123!')).toMatchObject({ upper: false });
  });

  it('passwordProblem names the first unmet rule', () => {
    expect(passwordProblem('abcdefgh')).toBe('Password needs an uppercase letter (A–Z).');
    expect(passwordProblem('Abcdefg1!')).toBeNull();
  });
});
