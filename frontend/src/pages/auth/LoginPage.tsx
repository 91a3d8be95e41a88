import { useEffect, useState, type FormEvent } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { SIGNED_OUT_FLAG } from '../../auth/storage';
import { useQuery } from '@tanstack/react-query';
import { CloudOff } from 'lucide-react';
import { setupApi } from '../../api/endpoints';
import { ApiError, errorMessage } from '../../api/errors';
import { useAuth } from '../../auth/AuthContext';
import { AuthShell } from '../../components/AuthShell';
import { Button } from '../../components/Button';
import { FormError, TextField } from '../../components/Field';
import { PasswordField } from '../../components/PasswordField';

interface LoginState {
  from?: string;
  expired?: boolean;
  loggedOut?: boolean;
  passwordReset?: boolean;
  email?: string;
}

export function LoginPage() {
  const { user, login } = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const state = (location.state ?? {}) as LoginState;
  // Signing out clears the session first, so the route guard may redirect here before the
  // sign-out navigation lands; the flag it leaves says why we are here either way.
  const [signedOut] = useState(() => {
    const flagged = sessionStorage.getItem(SIGNED_OUT_FLAG) === '1';
    sessionStorage.removeItem(SIGNED_OUT_FLAG);
    return flagged;
  });

  const [email, setEmail] = useState(state.email ?? '');
  const [password, setPassword] = useState('');
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  // A fresh install has no users: send the visitor to the setup wizard.
  const status = useQuery({ queryKey: ['setup', 'status'], queryFn: setupApi.status, retry: false, staleTime: 0 });
  useEffect(() => {
    if (status.data?.needs_setup) navigate('/onboarding', { replace: true });
  }, [status.data, navigate]);

  if (user && !submitting) return <Navigate to={state.from ?? '/admin'} replace />;

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const errs: Record<string, string> = {};
    const emailErr = email.trim() ? null : 'Enter your email address.';
    if (emailErr) errs.username = emailErr;
    if (!password) errs.password = 'Enter your password.';
    setFieldErrors(errs);
    setFormError(null);
    if (Object.keys(errs).length) return;

    setSubmitting(true);
    try {
      await login(email.trim(), password);
      navigate(state.from && state.from.startsWith('/admin') ? state.from : '/admin', { replace: true });
    } catch (err) {
      setSubmitting(false);
      if (err instanceof ApiError && Object.keys(err.fieldErrors).length) setFieldErrors(err.fieldErrors);
      setFormError(errorMessage(err));
    }
  };

  const unreachable = status.error instanceof ApiError ? status.error.isUnreachable : Boolean(status.error);

  return (
    <AuthShell
      title="Sign in to Strata"
      subtitle="Use your administrator or operator account."
      footer={<span>Need an account? Ask your administrator to add you in Team Members.</span>}
    >
      {status.error && !formError ? (
        <div className="alert alert--warning" role="alert" data-testid="server-unreachable">
          <CloudOff size={18} aria-hidden="true" className="alert__icon" />
          <div>
            <strong className="alert__title">{unreachable ? 'Cannot reach the Strata server' : 'Could not check the server'}</strong>
            <span>{errorMessage(status.error)}</span>
          </div>
          <Button size="sm" variant="secondary" onClick={() => void status.refetch()} loading={status.isFetching}>
            Retry
          </Button>
        </div>
      ) : null}
      {state.expired && !formError && (
        <div className="alert alert--info" role="status">
          Your session has ended. Please sign in again.
        </div>
      )}
      {(state.loggedOut || signedOut) && !formError && (
        <div className="alert alert--info" role="status">
          You have been signed out.
        </div>
      )}
      {state.passwordReset && !formError && (
        <div className="alert alert--success" role="status">
          Your password has been changed. Sign in with your new password.
        </div>
      )}
      <FormError message={formError} />
      <form className="form" onSubmit={onSubmit} noValidate aria-label="Sign in">
        <TextField
          label="Email"
          name="username"
          type="email"
          autoComplete="username"
          inputMode="email"
          autoFocus
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={fieldErrors.username ?? fieldErrors.email}
          required
        />
        <PasswordField
          label="Password"
          name="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={fieldErrors.password}
          required
        />
        <div className="form__row form__row--end">
          <Link to="/forgot-password" className="link">
            Forgot your password?
          </Link>
        </div>
        <Button type="submit" variant="primary" size="lg" block loading={submitting}>
          {submitting ? 'Signing in…' : 'Sign in'}
        </Button>
      </form>
    </AuthShell>
  );
}

