import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { CheckCircle2, ShieldCheck, ShieldX, XCircle } from 'lucide-react';
import { authApi } from '../../api/endpoints';
import { errorMessage } from '../../api/errors';
import type { PasswordResetApprovalResponse } from '../../api/model';
import { AuthShell } from '../../components/AuthShell';
import { Button } from '../../components/Button';
import { FormError, TextAreaField } from '../../components/Field';
import { NotFoundPage } from '../NotFoundPage';

/** `/admin/password-reset/:action/:token`, opened from the approval e-mail (CONTRACT 3, NEW POST form). */
export function PasswordResetDecisionPage() {
  const { action = '', token = '' } = useParams();
  const [reason, setReason] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<PasswordResetApprovalResponse | null>(null);

  if (action !== 'approve' && action !== 'deny') return <NotFoundPage />;
  const approve = action === 'approve';

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setSubmitting(true);
    setError(null);
    try {
      setResult(
        approve
          ? await authApi.approvePasswordReset(token)
          : await authApi.denyPasswordReset(token, reason.trim() ? reason.trim() : null),
      );
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setSubmitting(false);
    }
  };

  if (result) {
    return (
      <AuthShell
        title={approve ? 'Reset approved' : 'Reset denied'}
        icon={
          <div className={`result-panel__icon${approve ? ' result-panel__icon--success' : ''}`} aria-hidden="true">
            {approve ? <CheckCircle2 size={22} /> : <XCircle size={22} />}
          </div>
        }
      >
        <div className="result-panel" data-testid="decision-done">
          <p className="result-panel__text" role="status">
            {result.message}
          </p>
          {result.user_email && (
            <p className="muted small">
              Account: <strong>{result.user_email}</strong>
            </p>
          )}
          <Link className="btn btn--secondary btn--md" to="/admin">
            Go to Strata
          </Link>
        </div>
      </AuthShell>
    );
  }

  return (
    <AuthShell
      title={approve ? 'Approve password reset' : 'Deny password reset'}
      subtitle={
        approve
          ? 'The person who asked will get an email with a link to choose a new password. The link works for one hour.'
          : 'The person who asked will be told that the request was denied.'
      }
    >
      <div className={`decision-badge decision-badge--${approve ? 'approve' : 'deny'}`} aria-hidden="true">
        {approve ? <ShieldCheck size={20} /> : <ShieldX size={20} />}
        <span>{approve ? 'Approve this request only if you know who asked.' : 'Denying does not change the password.'}</span>
      </div>
      <FormError message={error} />
      <form className="form" onSubmit={onSubmit} aria-label={approve ? 'Approve reset' : 'Deny reset'}>
        {!approve && (
          <TextAreaField
            label="Reason (optional)"
            name="reason"
            maxLength={500}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            hint="Shown to the user in the denial email."
          />
        )}
        <Button type="submit" variant={approve ? 'primary' : 'danger'} size="lg" block loading={submitting}>
          {approve ? 'Approve reset' : 'Deny reset'}
        </Button>
      </form>
    </AuthShell>
  );
}
