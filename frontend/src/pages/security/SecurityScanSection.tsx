import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Wrench } from 'lucide-react';
import { securityApi } from '../../api/endpoints';
import { errorMessage } from '../../api/errors';
import type { SecurityCheck } from '../../api/model';
import { Button } from '../../components/Button';
import { Modal } from '../../components/Modal';
import { Badge, ErrorState, Skeleton } from '../../components/States';
import { humanize } from '../../lib/format';
import { queryKeys } from '../../api/queryKeys';

const STATUS_TONE: Record<string, 'success' | 'danger' | 'warning' | 'info'> = {
  pass: 'success',
  fail: 'danger',
  warn: 'warning',
  info: 'info',
};

/** A check an operator should act on. */
export function needsFix(check: Pick<SecurityCheck, 'status'>): boolean {
  return check.status === 'fail' || check.status === 'warn';
}

/** The configuration scan (GET /security/audit), each failing check with a "How to fix" button. */
export function SecurityScanSection() {
  const scan = useQuery({ queryKey: queryKeys.security.scan(), queryFn: ({ signal }) => securityApi.scan(signal) });
  const [open, setOpen] = useState<SecurityCheck | null>(null);

  return (
    <section className="card settings-card security-scan" aria-labelledby="security-scan-title">
      <header className="settings-card__head">
        <h2 className="card__title" id="security-scan-title">
          Configuration scan
        </h2>
        {scan.data && (
          <p className="muted small">
            {scan.data.summary.passed} passed, {scan.data.summary.failed} failed, {scan.data.summary.warnings} warnings
          </p>
        )}
      </header>
      {scan.isPending ? (
        <div aria-busy="true">
          <Skeleton height={34} />
          <Skeleton height={34} />
        </div>
      ) : scan.error ? (
        <ErrorState error={scan.error} onRetry={() => void scan.refetch()} compact />
      ) : (
        <ul className="security-checks" aria-label="Security checks">
          {scan.data.checks.map((c) => (
            <li key={c.id} className="security-check">
              <Badge tone={STATUS_TONE[c.status] ?? 'info'}>{humanize(c.status)}</Badge>
              <span className="cell-strong">{c.name}</span>
              <span className="muted">{c.message}</span>
              {needsFix(c) && (
                <Button size="sm" variant="ghost" icon={<Wrench size={14} />} onClick={() => setOpen(c)} aria-label={`How to fix: ${c.name}`}>
                  How to fix
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      {open && <RemediationDialog check={open} onClose={() => setOpen(null)} />}
    </section>
  );
}

/** The guidance of GET /security/remediate/{check_id}: steps and commands for the host. */
export function RemediationDialog({ check, onClose }: { check: Pick<SecurityCheck, 'id' | 'name'>; onClose: () => void }) {
  const guidance = useQuery({
    queryKey: queryKeys.security.remediation(check.id),
    queryFn: ({ signal }) => securityApi.remediation(check.id, signal),
  });
  const g = guidance.data;
  return (
    <Modal
      open
      title={`How to fix: ${check.name}`}
      description="Strata does not change the server itself: follow these steps on the host."
      onClose={onClose}
      footer={<Button onClick={onClose}>Done</Button>}
    >
      {guidance.isPending ? (
        <div aria-busy="true" aria-label="Loading the guidance">
          <Skeleton height={16} />
          <Skeleton height={16} />
        </div>
      ) : guidance.error ? (
        // The server's own words (an unknown check is a 404 that says so).
        <div role="alert" className="remediation">
          <p className="field__error">{errorMessage(guidance.error)}</p>
          <Button size="sm" onClick={() => void guidance.refetch()}>
            Try again
          </Button>
        </div>
      ) : g ? (
        <div className="remediation">
          <ol aria-label="Steps">
            {g.steps.map((step) => (
              <li key={step}>{step}</li>
            ))}
          </ol>
          {g.commands && g.commands.length > 0 && (
            <>
              <h3 className="small">Commands to run on the server</h3>
              <pre className="mono" aria-label="Commands">
                {g.commands.join('\n')}
              </pre>
            </>
          )}
          {g.docs && <p className="muted small">More in {g.docs}.</p>}
        </div>
      ) : null}
    </Modal>
  );
}
