/** How each printer status is coloured wherever a printer's status is shown. */
export const STATUS_TONE: Record<string, 'success' | 'info' | 'warning' | 'danger' | 'neutral'> = {
  idle: 'success',
  printing: 'info',
  paused: 'warning',
  maintenance: 'warning',
  error: 'danger',
  offline: 'neutral',
};
