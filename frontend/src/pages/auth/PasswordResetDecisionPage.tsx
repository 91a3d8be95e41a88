import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { zodResolver } from '@hookform/resolvers/zod';
import { CheckCircle2, ShieldCheck, ShieldX, XCircle } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { authApi } from '../../api/endpoints';
import type { PasswordResetApprovalResponse, RequestBody } from '../../api/model';
import { AuthShell } from '../../components/AuthShell';
import { Button } from '../../components/Button';
import { FormError, TextAreaField } from '../../components/Field';
import { applyServerErrors } from '../../lib/forms';
import { NotFoundPage } from '../NotFoundPage';

/** The deny form (approving has no fields); with the link's token it is the body of POST /auth/password-reset/deny. */
export const denySchema = z.object({
  reason: z
    .string()
    .trim()
    .max(500, 'Use at most 500 characters.')
    .transform((v) => v || null),
}) satisfies z.ZodType<Omit<RequestBody<'/auth/password-reset/deny', 'post'>, 'approval_token'>, unknown>;

type DenyValues = z.input<typeof denySchema>;
type DenyOutput = z.output<typeof denySchema>;

/** `/admin/password-reset/:action/:token`, opened from the approval e-mail (CONTRACT 3, NEW POST form). */
export function PasswordResetDecisionPage() {
  const { action = '', token = '' } = useParams();
  const [formError, setFormError] = useState<string | null>(null);
  const [result, setResult] = useState<PasswordResetApprovalResponse | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<DenyValues, unknown, DenyOutput>({ resolver: zodResolver(denySchema), defaultValues: { reason: '' } });

  if (action !== 'approve' && action !== 'deny') return <NotFoundPage />;
  const approve = action === 'approve';

  const onSubmit = handleSubmit(async ({ reason }) => {
    setFormError(null);
    try {
      setResult(approve ? await authApi.approvePasswordReset(token) : await authApi.denyPasswordReset(token, reason));
    } catch (err) {
      setFormError(applyServerErrors(err, setError, ['reason']));
    }
  });

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
      <FormError message={formError} />
      <form className="form" onSubmit={(e) => void onSubmit(e)} aria-label={approve ? 'Approve reset' : 'Deny reset'}>
        {!approve && (
          <TextAreaField
            label="Reason (optional)"
            {...register('reason')}
            maxLength={500}
            error={errors.reason?.message}
            hint="Shown to the user in the denial email."
          />
        )}
        <Button type="submit" variant={approve ? 'primary' : 'danger'} size="lg" block loading={isSubmitting}>
          {approve ? 'Approve reset' : 'Deny reset'}
        </Button>
      </form>
    </AuthShell>
  );
}
