import type { SpoolStatus } from './spoolApi';

export function statusTone(s: SpoolStatus): 'success' | 'neutral' | 'warning' | 'danger' {
  return s === 'active' ? 'success' : s === 'empty' ? 'neutral' : s === 'expired' ? 'warning' : 'danger';
}
