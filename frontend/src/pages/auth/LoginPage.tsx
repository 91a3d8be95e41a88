import { useEffect, useState } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { SIGNED_OUT_FLAG } from '../../auth/storage';
import { useQuery } from '@tanstack/react-query';
import { zodResolver } from '@hookform/resolvers/zod';
import { CloudOff } from 'lucide-react';
import { Controller, useForm } from 'react-hook-form';
import { z } from 'zod';
import { setupApi } from '../../api/endpoints';
import { ApiError, errorMessage } from '../../api/errors';
import type { RequestBody } from '../../api/model';
import { useAuth } from '../../auth/AuthContext';
import { AuthShell } from '../../components/AuthShell';
import { Button } from '../../components/Button';
import { FormError, TextField } from '../../components/Field';
import { applyServerErrors } from '../../lib/forms';
import { PasswordField } from '../../components/PasswordField';
import { queryKeys } from '../../api/queryKeys';

/** The sign-in form; its output is the generated body of POST /auth/login (sent form-encoded). */
export const loginSchema = z.object({
  username: z.string().trim().min(1, 'Enter your email address.'),
  password: z.string().min(1, 'Enter your password.'),
}) satisfies z.ZodType<RequestBody<'/auth/login', 'post'>, unknown>;

type LoginValues = z.input<typeof loginSchema>;

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

  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<LoginValues>({ resolver: zodResolver(loginSchema), defaultValues: { username: state.email ?? '', password: '' } });
  const [formError, setFormError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  // A fresh install has no users: send the visitor to the setup wizard.
  const status = useQuery({ queryKey: queryKeys.setup.status(), queryFn: setupApi.status, retry: false, staleTime: 0 });
  useEffect(() => {
    if (status.data?.needs_setup) navigate('/onboarding', { replace: true });
  }, [status.data, navigate]);

  if (user && !submitting) return <Navigate to={state.from ?? '/admin'} replace />;

  const onSubmit = handleSubmit(async ({ username, password }) => {
    setFormError(null);
    setSubmitting(true);
    try {
      await login(username, password);
      navigate(state.from && state.from.startsWith('/admin') ? state.from : '/admin', { replace: true });
    } catch (err) {
      setSubmitting(false);
      // The server may name the address `email` rather than the form's `username`.
      if (err instanceof ApiError && err.fieldErrors.email && !err.fieldErrors.username) {
        setError('username', { type: 'server', message: err.fieldErrors.email });
      }
      applyServerErrors(err, setError, ['username', 'password']);
      setFormError(errorMessage(err));
    }
  });

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
      <form className="form" onSubmit={(e) => void onSubmit(e)} noValidate aria-label="Sign in">
        <TextField
          label="Email"
          {...register('username')}
          type="email"
          autoComplete="username"
          inputMode="email"
          autoFocus
          error={errors.username?.message}
          required
        />
        <Controller
          control={control}
          name="password"
          render={({ field }) => <PasswordField label="Password" autoComplete="current-password" {...field} error={errors.password?.message} required />}
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

