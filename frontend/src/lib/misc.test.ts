import { describe, expect, it } from 'vitest';
import { parseCsv, previewCsv } from './csv';
import { formatDate, formatImportError, formatMoney, formatQty, formatRelativeTime, setDisplayFormat } from './format';
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

describe('relative time', () => {
  const now = Date.parse('2026-11-27T12:00:00Z');
  const at = (seconds: number) => new Date(now + seconds * 1000).toISOString();
  const rel = (v: string | null) => formatRelativeTime(v, { now, locale: 'en' });
  it('names the largest whole unit, past and future', () => {
    expect(rel(at(-20))).toBe('just now');
    expect(rel(at(20))).toBe('in under a minute');
    expect(rel(at(-60))).toBe('1 minute ago');
    expect(rel(at(-90 * 60))).toBe('1 hour ago');
    expect(rel(at(-3 * 3600))).toBe('3 hours ago');
    expect(rel(at(-86_400))).toBe('yesterday');
    expect(rel(at(6 * 86_400))).toBe('in 6 days');
    expect(rel(at(-14 * 86_400))).toBe('2 weeks ago');
    expect(rel(null)).toBe('—');
    expect(rel('not a date')).toBe('not a date');
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

describe('display format', () => {
  it('writes money, quantities and dates in the company currency and locale, and keeps the last good one', () => {
    try {
      setDisplayFormat({ currency: 'EUR', locale: 'de-DE' });
      expect(formatMoney('1234.5')).toMatch(/^1\.234,50\s€$/);
      expect(formatQty('1234.5', 'g')).toBe('1.234,5 g');
      expect(formatDate('2026-12-31')).toBe('31.12.2026');
      setDisplayFormat({ currency: 'not a code', locale: 'de-DE' });
      expect(formatMoney('1')).toMatch(/^1,00\s€$/);
      setDisplayFormat({ currency: 'JPY', locale: 'ja-JP' });
      expect(formatMoney('1234.5')).toMatch(/1,235$/);
    } finally {
      setDisplayFormat({ currency: 'USD', locale: null });
    }
  });
});
