import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { ArrowLeft, KeyRound, MailCheck } from 'lucide-react';
import { authApi } from '../../api/endpoints';
import { ApiError, errorMessage } from '../../api/errors';
import type { PasswordResetRequestResponse } from '../../api/model';
import { AuthShell } from '../../components/AuthShell';
import { Button } from '../../components/Button';
import { FormError, TextField } from '../../components/Field';
import { emailProblem } from '../../lib/validation';

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
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [result, setResult] = useState<PasswordResetRequestResponse | null>(null);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const problem = emailProblem(email);
    setError(problem);
    setFormError(null);
    if (problem) return;
    setSubmitting(true);
    try {
      setResult(await authApi.requestPasswordReset(email.trim()));
    } catch (err) {
      if (err instanceof ApiError && err.fieldErrors.email) setError(err.fieldErrors.email);
      else setFormError(errorMessage(err));
    } finally {
      setSubmitting(false);
    }
  };

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
      <form className="form" onSubmit={onSubmit} noValidate aria-label="Request a password reset">
        <TextField
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          inputMode="email"
          autoFocus
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={error}
          required
        />
        <Button type="submit" variant="primary" size="lg" block loading={submitting}>
          Request reset
        </Button>
      </form>
    </AuthShell>
  );
}
