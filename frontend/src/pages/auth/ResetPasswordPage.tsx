import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { zodResolver } from '@hookform/resolvers/zod';
import { ArrowLeft, Clock, CloudOff, ShieldX } from 'lucide-react';
import { Controller, useForm } from 'react-hook-form';
import { z } from 'zod';
import { authApi } from '../../api/endpoints';
import { errorMessage } from '../../api/errors';
import type { RequestBody } from '../../api/model';
import { AuthShell } from '../../components/AuthShell';
import { Button } from '../../components/Button';
import { FormError } from '../../components/Field';
import { PasswordField } from '../../components/PasswordField';
import { PageSpinner } from '../../components/Spinner';
import { applyServerErrors } from '../../lib/forms';
import { checkPassword } from '../../lib/passwordRules';
import { queryKeys } from '../../api/queryKeys';

/** The new-password form; with the link's token its output is the body of POST /auth/password-reset/complete. */
export const newPasswordSchema = z
  .object({
    new_password: z.string().refine((v) => checkPassword(v).valid, 'Your password doesn’t meet all the requirements below.'),
    confirm: z.string(),
  })
  .refine((v) => v.confirm === v.new_password, { path: ['confirm'], message: 'The passwords don’t match.' })
  .transform(({ new_password }) => ({ new_password })) satisfies z.ZodType<
  Omit<RequestBody<'/auth/password-reset/complete', 'post'>, 'token'>,
  unknown
>;

type NewPasswordValues = z.input<typeof newPasswordSchema>;
type NewPasswordOutput = z.output<typeof newPasswordSchema>;

export function ResetPasswordPage() {
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const [formError, setFormError] = useState<string | null>(null);
  const {
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<NewPasswordValues, unknown, NewPasswordOutput>({
    resolver: zodResolver(newPasswordSchema),
    defaultValues: { new_password: '', confirm: '' },
  });

  const status = useQuery({
    queryKey: queryKeys.passwordReset.status(token),
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

  const onSubmit = handleSubmit(async ({ new_password }) => {
    setFormError(null);
    try {
      await authApi.completePasswordReset({ token, new_password });
      navigate('/admin/login', { replace: true, state: { passwordReset: true } });
    } catch (err) {
      applyServerErrors(err, setError, ['new_password', 'confirm']);
      setFormError(errorMessage(err));
    }
  });

  return (
    <AuthShell title="Choose a new password" subtitle="After this, you’ll be signed out everywhere else." footer={back}>
      <FormError message={formError} />
      <form className="form" onSubmit={(e) => void onSubmit(e)} noValidate aria-label="Choose a new password">
        <Controller
          control={control}
          name="new_password"
          render={({ field }) => (
            <PasswordField label="New password" autoComplete="new-password" autoFocus {...field} error={errors.new_password?.message} showRules required />
          )}
        />
        <Controller
          control={control}
          name="confirm"
          render={({ field }) => (
            <PasswordField label="Confirm new password" autoComplete="new-password" {...field} error={errors.confirm?.message} required />
          )}
        />
        <Button type="submit" variant="primary" size="lg" block loading={isSubmitting}>
          Set new password
        </Button>
      </form>
    </AuthShell>
  );
}
