import { useState } from 'react';
import { Link } from 'react-router';
import { zodResolver } from '@hookform/resolvers/zod';
import { ArrowLeft, KeyRound, MailCheck } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { authApi } from '../../api/endpoints';
import { ApiError } from '../../api/errors';
import type { PasswordResetRequestResponse, RequestBody } from '../../api/model';
import { AuthShell } from '../../components/AuthShell';
import { Button } from '../../components/Button';
import { FormError, TextField } from '../../components/Field';
import { applyServerErrors } from '../../lib/forms';
import { emailProblem } from '../../lib/validation';

/** The request form; its output is the generated body of POST /auth/password-reset/request. */
export const resetRequestSchema = z.object({
  email: z
    .string()
    .trim()
    .superRefine((v, ctx) => {
      const problem = emailProblem(v);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
}) satisfies z.ZodType<RequestBody<'/auth/password-reset/request', 'post'>, unknown>;

type ResetRequestValues = z.input<typeof resetRequestSchema>;

export const GENERIC_RESET_MESSAGE =
  'If an account exists with this email, a password reset request has been submitted for review.';

/** `/reset-password/abc` (relative, from the server) or an absolute URL on this site → a router path. */
export function resetLinkPath(resetUrl: string): string {
  try {
    const url = new URL(resetUrl, window.location.origin);
    if (url.origin === window.location.origin) return url.pathname + url.search;
    return resetUrl;
  } catch {
    return resetUrl;
  }
}

export function ForgotPasswordPage() {
  const [formError, setFormError] = useState<string | null>(null);
  const [result, setResult] = useState<PasswordResetRequestResponse | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<ResetRequestValues>({ resolver: zodResolver(resetRequestSchema), defaultValues: { email: '' } });

  const onSubmit = handleSubmit(async ({ email }) => {
    setFormError(null);
    try {
      setResult(await authApi.requestPasswordReset(email));
    } catch (err) {
      const message = applyServerErrors(err, setError, ['email']);
      // A field error on the address speaks for itself; anything else goes above the form.
      if (!(err instanceof ApiError && err.fieldErrors.email)) setFormError(message);
    }
  });

  const back = (
    <Link to="/admin/login" className="link link--muted">
      <ArrowLeft size={14} aria-hidden="true" /> Back to sign in
    </Link>
  );

  if (result) {
    const link = result.reset_url ? resetLinkPath(result.reset_url) : null;
    return (
      <AuthShell
        title="Check your request"
        footer={back}
        icon={
          <div className="result-panel__icon" aria-hidden="true">
            {link ? <KeyRound size={22} /> : <MailCheck size={22} />}
          </div>
        }
      >
        <div className="result-panel" data-testid="reset-requested">
          <p className="result-panel__text" role="status">
            {result.message || GENERIC_RESET_MESSAGE}
          </p>
          {link && (
            <>
              <p className="muted small">
                Email is not set up on this server, so the link is shown here instead of being sent. It works once.
              </p>
              {link.startsWith('/') ? (
                <Link className="btn btn--primary btn--lg btn--block" to={link} data-testid="reset-link">
                  Choose a new password
                </Link>
              ) : (
                <a className="btn btn--primary btn--lg btn--block" href={link} data-testid="reset-link">
                  Choose a new password
                </a>
              )}
            </>
          )}
          {!link && (
            <p className="muted small">
              An administrator reviews every request. Once it is approved you’ll get an email with a link to choose a new
              password.
            </p>
          )}
        </div>
      </AuthShell>
    );
  }

  return (
    <AuthShell
      title="Reset your password"
      subtitle="Enter the email you sign in with. An administrator approves every reset before a link is issued."
      footer={back}
    >
      <FormError message={formError} />
      <form className="form" onSubmit={(e) => void onSubmit(e)} noValidate aria-label="Request a password reset">
        <TextField
          label="Email"
          {...register('email')}
          type="email"
          autoComplete="email"
          inputMode="email"
          autoFocus
          error={errors.email?.message}
          required
        />
        <Button type="submit" variant="primary" size="lg" block loading={isSubmitting}>
          Request reset
        </Button>
      </form>
    </AuthShell>
  );
}
