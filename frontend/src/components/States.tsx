import type { ReactNode } from 'react';
import { AlertCircle, CloudOff, Inbox } from 'lucide-react';
import { ApiError, errorMessage } from '../api/errors';
import { Button } from './Button';

interface EmptyStateProps {
  icon?: ReactNode;
  title: string;
  description?: ReactNode;
  action?: ReactNode;
  compact?: boolean;
}

export function EmptyState({ icon, title, description, action, compact }: EmptyStateProps) {
  return (
    <div className={`empty-state${compact ? ' empty-state--compact' : ''}`}>
      <div className="empty-state__icon" aria-hidden="true">
        {icon ?? <Inbox size={22} />}
      </div>
      <h2 className="empty-state__title">{title}</h2>
      {description && <div className="empty-state__description">{description}</div>}
      {action && <div className="empty-state__action">{action}</div>}
    </div>
  );
}

/** Shown when loading failed: what went wrong (a 404 too: every list route exists) and a retry. */
export function ErrorState({ error, onRetry, compact }: { error: unknown; onRetry?: () => void; compact?: boolean }) {
  const apiErr = error instanceof ApiError ? error : null;
  return (
    <div className={`empty-state empty-state--error${compact ? ' empty-state--compact' : ''}`} role="alert">
      <div className="empty-state__icon" aria-hidden="true">
        {apiErr?.isUnreachable ? <CloudOff size={22} /> : <AlertCircle size={22} />}
      </div>
      <h2 className="empty-state__title">{apiErr?.isUnreachable ? 'Cannot reach the server' : 'Could not load this'}</h2>
      <div className="empty-state__description">{errorMessage(error)}</div>
      {onRetry && (
        <div className="empty-state__action">
          <Button onClick={onRetry}>Try again</Button>
        </div>
      )}
    </div>
  );
}

export function Badge({ tone = 'neutral', children }: { tone?: 'neutral' | 'success' | 'warning' | 'danger' | 'info'; children: ReactNode }) {
  return <span className={`badge badge--${tone}`}>{children}</span>;
}

export function Skeleton({ width, height = 12 }: { width?: number | string; height?: number }) {
  return <span className="skeleton" style={{ width, height }} aria-hidden="true" />;
}
