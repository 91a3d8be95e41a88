import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { ArrowLeft, Clock, CloudOff, ShieldX } from 'lucide-react';
import { authApi } from '../../api/endpoints';
import { ApiError, errorMessage } from '../../api/errors';
import { AuthShell } from '../../components/AuthShell';
import { Button } from '../../components/Button';
import { FormError } from '../../components/Field';
import { PasswordField } from '../../components/PasswordField';
import { PageSpinner } from '../../components/Spinner';
import { checkPassword } from '../../lib/passwordRules';

export function ResetPasswordPage() {
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  const status = useQuery({
    queryKey: ['password-reset', 'status', token],
    queryFn: () => authApi.passwordResetStatus(token),
    retry: false,
  });

  const back = (
    <Link to="/admin/login" className="link link--muted">
      <ArrowLeft size={14} aria-hidden="true" /> Back to sign in
    </Link>
  );

  if (status.isPending) {
    return (
      <AuthShell title="Choose a new password" footer={back}>
        <PageSpinner label="Checking your reset link" />
      </AuthShell>
    );
  }

  if (status.error || !status.data?.can_reset) {
    const pending = status.data?.status === 'pending';
    return (
      <AuthShell
        title={status.error ? 'We couldn’t check this link' : pending ? 'Waiting for approval' : 'This link can’t be used'}
        footer={back}
        icon={
          <div className={`result-panel__icon${pending || status.error ? '' : ' result-panel__icon--danger'}`} aria-hidden="true">
            {status.error ? <CloudOff size={22} /> : pending ? <Clock size={22} /> : <ShieldX size={22} />}
          </div>
        }
      >
        <div className="result-panel" data-testid="reset-unavailable">
          <p className="result-panel__text" role="alert">
            {status.data?.message ?? errorMessage(status.error)}
          </p>
          {status.error && (
            <Button onClick={() => void status.refetch()} loading={status.isFetching}>
              Try again
            </Button>
          )}
          {!pending && !status.error && (
            <Link className="btn btn--primary btn--md" to="/forgot-password">
              Request a new link
            </Link>
          )}
        </div>
      </AuthShell>
    );
  }

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const errs: Record<string, string> = {};
    if (!checkPassword(password).valid) errs.new_password = 'Your password doesn’t meet all the requirements below.';
    if (confirm !== password) errs.confirm = 'The passwords don’t match.';
    setErrors(errs);
    setFormError(null);
    if (Object.keys(errs).length) return;
    setSubmitting(true);
    try {
      await authApi.completePasswordReset({ token, new_password: password });
      navigate('/admin/login', { replace: true, state: { passwordReset: true } });
    } catch (err) {
      setSubmitting(false);
      if (err instanceof ApiError && Object.keys(err.fieldErrors).length) setErrors(err.fieldErrors);
      setFormError(errorMessage(err));
    }
  };

  return (
    <AuthShell title="Choose a new password" subtitle="After this, you’ll be signed out everywhere else." footer={back}>
      <FormError message={formError} />
      <form className="form" onSubmit={onSubmit} noValidate aria-label="Choose a new password">
        <PasswordField
          label="New password"
          name="new_password"
          autoComplete="new-password"
          autoFocus
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={errors.new_password}
          showRules
          required
        />
        <PasswordField
          label="Confirm new password"
          name="confirm"
          autoComplete="new-password"
          value={confirm}
          onChange={(e) => setConfirm(e.target.value)}
          error={errors.confirm}
          required
        />
        <Button type="submit" variant="primary" size="lg" block loading={submitting}>
          Set new password
        </Button>
      </form>
    </AuthShell>
  );
}
