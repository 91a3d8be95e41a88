import { describe, expect, it } from 'vitest';
import {
  canDownload,
  DEFAULT_FORM,
  expiresLabel,
  exportFilename,
  exportFormSchema,
  newIdempotencyKey,
  normaliseQuery,
  pollInterval,
  POLL_MS,
  presetById,
  presetOf,
  PRESETS,
  progressLabel,
  rootField,
  sizeLabel,
  statusBadge,
} from './bulkExports';

const NOW = new Date('2026-11-24T12:00:00Z');

describe('presets', () => {
  it('have unique ids, one top-level field each, and CSV presets select no nested objects', () => {
    expect(new Set(PRESETS.map((p) => p.id)).size).toBe(PRESETS.length);
    expect(PRESETS.length).toBeGreaterThanOrEqual(4);
    for (const p of PRESETS) {
      expect(rootField(p.query)).not.toBe('');
      expect(exportFormSchema.safeParse({ preset: p.id, query: p.query, format: p.format }).success).toBe(true);
      if (p.format === 'csv') {
        // `{ root { nodes { a b c } } }`: exactly three opening braces.
        expect(p.query.split('{').length - 1, p.id).toBe(3);
      }
    }
    expect(PRESETS.map((p) => rootField(p.query))).toEqual(['inventoryTransactions', 'journalEntries', 'salesOrders', 'items', 'productionOrders']);
  });

  it('are recognised however the query is spaced, and an edited query is custom', () => {
    const items = presetById('items')!;
    expect(presetOf(items.query)).toBe('items');
    expect(presetOf(items.query.replace(/\n\s*/g, ' '))).toBe('items');
    expect(presetOf('{ items { nodes { sku } } }')).toBe('');
    expect(presetById('nope')).toBeUndefined();
    expect(normaliseQuery('{ a  {\n b }\n}')).toBe('{a{b}}');
  });

  it('the form starts on the first preset', () => {
    expect(DEFAULT_FORM).toEqual({ preset: PRESETS[0]!.id, query: PRESETS[0]!.query, format: PRESETS[0]!.format });
  });
});

describe('form schema', () => {
  it('wants a query with braces and a known format', () => {
    const empty = exportFormSchema.safeParse({ preset: '', query: '   ', format: 'csv' });
    expect(empty.success).toBe(false);
    expect(empty.error?.issues[0]?.path).toEqual(['query']);
    expect(exportFormSchema.safeParse({ preset: '', query: 'items', format: 'csv' }).success).toBe(false);
    expect(exportFormSchema.safeParse({ preset: '', query: '{ items { nodes { sku } } }', format: 'xlsx' }).success).toBe(false);
    expect(exportFormSchema.safeParse({ preset: '', query: '{ items { nodes { sku } } }', format: 'jsonl' }).success).toBe(true);
  });
});

describe('polling', () => {
  it('polls while any export is queued or running and stops when none is', () => {
    expect(pollInterval(undefined)).toBe(false);
    expect(pollInterval([])).toBe(false);
    expect(pollInterval([{ status: 'completed' }, { status: 'failed' }, { status: 'expired' }])).toBe(false);
    expect(pollInterval([{ status: 'completed' }, { status: 'queued' }])).toBe(POLL_MS);
    expect(pollInterval([{ status: 'running' }], 500)).toBe(500);
  });
});

describe('formatting', () => {
  const base = { id: 7, format: 'csv' as const, status: 'completed' as const, progress: 3, row_count: 3, size_bytes: 2048, download_url: '/api/v1/bulk-exports/7/download', expires_at: '2026-11-25T11:00:00Z' };

  it('status badges', () => {
    expect(statusBadge('queued')).toEqual({ label: 'Queued', tone: 'neutral' });
    expect(statusBadge('running').tone).toBe('info');
    expect(statusBadge('completed').tone).toBe('success');
    expect(statusBadge('failed').tone).toBe('danger');
    expect(statusBadge('expired').tone).toBe('warning');
    expect(statusBadge('paused')).toEqual({ label: 'Paused', tone: 'neutral' });
  });

  it('rows: waiting, so far, done', () => {
    expect(progressLabel({ ...base, status: 'queued', progress: 0, row_count: null })).toBe('Waiting to start');
    expect(progressLabel({ ...base, status: 'running', progress: 1500, row_count: null })).toBe('1,500 rows so far');
    expect(progressLabel(base)).toBe('3 rows');
    expect(progressLabel({ ...base, row_count: 1 })).toBe('1 row');
    expect(progressLabel({ ...base, status: 'failed', progress: 0, row_count: null })).toBe('—');
  });

  it('size only once there is a file', () => {
    expect(sizeLabel(base)).toBe('2.0 KB');
    expect(sizeLabel({ ...base, status: 'queued' })).toBe('—');
    expect(sizeLabel({ ...base, status: 'failed' })).toBe('—');
    expect(sizeLabel({ ...base, size_bytes: 0 })).toBe('0 B');
  });

  it('download only while completed and not expired', () => {
    expect(canDownload(base, NOW)).toBe(true);
    expect(canDownload({ ...base, expires_at: '2026-11-24T11:59:00Z' }, NOW)).toBe(false);
    expect(canDownload({ ...base, status: 'expired' }, NOW)).toBe(false);
    expect(canDownload({ ...base, status: 'running', download_url: null }, NOW)).toBe(false);
    expect(canDownload({ ...base, download_url: null }, NOW)).toBe(false);
    expect(exportFilename(base)).toBe('bulk-export-7.csv');
    expect(exportFilename({ id: 8, format: 'jsonl' })).toBe('bulk-export-8.jsonl');
  });

  it('expiry', () => {
    expect(expiresLabel(null, NOW)).toBe('—');
    expect(expiresLabel('2026-11-25T11:00:00Z', NOW)).toBe('in 23 h');
    expect(expiresLabel('2026-11-24T12:05:00Z', NOW)).toBe('in 5 min');
    expect(expiresLabel('2026-11-24T11:00:00Z', NOW)).toBe('Expired');
  });

  it('root field of a query', () => {
    expect(rootField('{ items { nodes { sku } } }')).toBe('items');
    expect(rootField('query Q { all: salesOrders { nodes { id } } }')).toBe('salesOrders');
    expect(rootField('# comment\n{\n  journalEntries { nodes { id } } }')).toBe('journalEntries');
    expect(rootField('nonsense')).toBe('');
  });

  it('idempotency keys differ per submit', () => {
    const a = newIdempotencyKey();
    expect(a).not.toBe(newIdempotencyKey());
    expect(a.length).toBeGreaterThan(10);
  });
});
