import type { SpoolStatus } from './spoolApi';

export function statusTone(s: SpoolStatus): 'success' | 'neutral' | 'warning' | 'danger' {
  return s === 'active' ? 'success' : s === 'empty' ? 'neutral' : s === 'expired' ? 'warning' : 'danger';
}

/** A calendar date ("2026-11-23" or a timestamp) without the time of day. */
export { formatDate } from '../../lib/format';
