import { describe, expect, it } from 'vitest';
import { parseCsv, previewCsv } from './csv';
import { formatImportError } from './format';
import { shouldRenew } from '../auth/renewal';
import { jwtExpiry } from '../auth/jwt';
import { emailProblem } from './validation';

describe('CSV preview', () => {
  it('handles quotes, escaped quotes, CRLF, a BOM and blank lines', () => {
    const text = '\uFEFFSKU,Name,Price\r\nA-1,"Widget, large","1,299.00"\r\n\r\nB-2,"Say ""hi""",5\n';
    expect(parseCsv(text)).toEqual([
      ['SKU', 'Name', 'Price'],
      ['A-1', 'Widget, large', '1,299.00'],
      ['B-2', 'Say "hi"', '5'],
    ]);
    const p = previewCsv(text, 1);
    expect(p.headers).toEqual(['SKU', 'Name', 'Price']);
    expect(p.rows).toHaveLength(1);
    expect(p.totalRows).toBe(2);
  });
});

describe('import errors', () => {
  it('formats strings and row objects', () => {
    expect(formatImportError('bad')).toBe('bad');
    expect(formatImportError({ row: 3, reason: 'Missing SKU' })).toBe('Row 3: Missing SKU');
    expect(formatImportError({ error: 'Unknown item' })).toBe('Unknown item');
  });
});

describe('session renewal (CONTRACT 7 refresh hook)', () => {
  const now = 1_000_000_000;
  const min = 60_000;
  it('renews when the token expires within 5 minutes and the user was active', () => {
    expect(shouldRenew({ now, lastActivity: now - 1 * min, tokenExpiry: now + 4 * min, lastRenewed: now - 26 * min })).toBe(true);
    expect(shouldRenew({ now, lastActivity: now - 1 * min, tokenExpiry: now + 10 * min, lastRenewed: now - 20 * min })).toBe(false);
  });
  it('lets an idle session lapse', () => {
    expect(shouldRenew({ now, lastActivity: now - 26 * min, tokenExpiry: now + 1 * min, lastRenewed: now - 29 * min })).toBe(false);
  });
  it('cookie mode renews every 20 active minutes', () => {
    expect(shouldRenew({ now, lastActivity: now, tokenExpiry: null, lastRenewed: now - 21 * min })).toBe(true);
    expect(shouldRenew({ now, lastActivity: now, tokenExpiry: null, lastRenewed: now - 5 * min })).toBe(false);
  });
  it('reads exp from a JWT', () => {
    const payload = btoa(JSON.stringify({ sub: '1', exp: 1_700_000_000 })).replace(/=+$/, '');
    expect(jwtExpiry(`x.${payload}.y`)).toBe(1_700_000_000_000);
    expect(jwtExpiry('garbage')).toBeNull();
    expect(jwtExpiry(null)).toBeNull();
  });
});

describe('email check', () => {
  it('rejects special-use domains and accepts example.com', () => {
    expect(emailProblem('admin@example.com')).toBeNull();
    expect(emailProblem('admin@shop.local')).toMatch(/reserved/);
    expect(emailProblem('nope')).toMatch(/valid email/);
    expect(emailProblem('')).toMatch(/Enter your email/);
  });
});
