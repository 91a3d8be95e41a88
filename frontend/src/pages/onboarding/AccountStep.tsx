import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { setupApi } from '../../api/endpoints';
import { ApiError, errorMessage } from '../../api/errors';
import { useAuth } from '../../auth/AuthContext';
import { Button } from '../../components/Button';
import { FormError, TextField } from '../../components/Field';
import { PasswordField } from '../../components/PasswordField';
import { checkPassword } from '../../lib/passwordRules';
import { emailProblem } from '../../lib/validation';

interface Values {
  email: string;
  full_name: string;
  company_name: string;
  password: string;
  confirm: string;
}

export function validateAccount(v: Values): Record<string, string> {
  const errs: Record<string, string> = {};
  const emailErr = emailProblem(v.email);
  if (emailErr) errs.email = emailErr;
  if (!v.full_name.trim()) errs.full_name = 'Enter your name.';
  else if (v.full_name.trim().length > 100) errs.full_name = 'Use at most 100 characters.';
  if (v.company_name.trim().length > 100) errs.company_name = 'Use at most 100 characters.';
  if (!checkPassword(v.password).valid) errs.password = 'Your password doesn’t meet all the requirements below.';
  if (!v.confirm) errs.confirm = 'Enter the password again.';
  else if (v.confirm !== v.password) errs.confirm = 'The passwords don’t match.';
  return errs;
}

export function AccountStep({ onDone }: { onDone: (note: string) => void }) {
  const { adoptSession } = useAuth();
  const [values, setValues] = useState<Values>({ email: '', full_name: '', company_name: '', password: '', confirm: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [setupClosed, setSetupClosed] = useState(false);
  const [submitting, setSubmitting] = useState(false);

  const set = (k: keyof Values) => (e: { target: { value: string } }) => {
    setValues((v) => ({ ...v, [k]: e.target.value }));
    if (errors[k]) setErrors((prev) => ({ ...prev, [k]: '' }));
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const errs = validateAccount(values);
    setErrors(errs);
    setFormError(null);
    if (Object.keys(errs).length) {
      const first = Object.keys(errs)[0];
      document.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
      return;
    }
    setSubmitting(true);
    try {
      const res = await setupApi.initialAdmin({
        email: values.email.trim(),
        password: values.password,
        full_name: values.full_name.trim(),
        company_name: values.company_name.trim(),
      });
      try {
        await adoptSession({ access_token: res.access_token, refresh_token: res.refresh_token });
      } catch (err) {
        setFormError(`Your account was created, but signing you in failed: ${errorMessage(err)} Sign in to continue.`);
        setSetupClosed(true);
        setSubmitting(false);
        return;
      }
      onDone(`Administrator ${values.email.trim()} created`);
    } catch (err) {
      setSubmitting(false);
      if (err instanceof ApiError) {
        if (err.status === 403) setSetupClosed(true);
        const fe = { ...err.fieldErrors };
        if (fe.new_password && !fe.password) fe.password = fe.new_password;
        setErrors(fe);
        if (err.status === 404) {
          setFormError('The server does not offer first-run setup yet (404). Try again once it is up to date.');
          return;
        }
      }
      setFormError(errorMessage(err));
    }
  };

  return (
    <form className="form" onSubmit={onSubmit} noValidate aria-label="Create your account">
      <FormError message={formError} />
      {setupClosed && (
        <p className="small">
          <Link className="link" to="/admin/login">
            Go to sign in
          </Link>
        </p>
      )}
      <div className="form__grid">
        <TextField
          label="Full name"
          name="full_name"
          autoComplete="name"
          autoFocus
          value={values.full_name}
          onChange={set('full_name')}
          error={errors.full_name}
          required
        />
        <TextField
          label="Work email"
          name="email"
          type="email"
          inputMode="email"
          autoComplete="email"
          value={values.email}
          onChange={set('email')}
          error={errors.email}
          hint="You’ll sign in with this address."
          required
        />
      </div>
      <TextField
        label="Company name"
        name="company_name"
        autoComplete="organization"
        value={values.company_name}
        onChange={set('company_name')}
        error={errors.company_name}
        hint="Optional. Shown on quotes and documents; you can change it later in Settings."
      />
      <div className="form__stack">
        <PasswordField
          label="Password"
          name="password"
          autoComplete="new-password"
          value={values.password}
          onChange={set('password')}
          error={errors.password}
          showRules
          required
        />
        <PasswordField
          label="Confirm password"
          name="confirm"
          autoComplete="new-password"
          value={values.confirm}
          onChange={set('confirm')}
          error={errors.confirm}
          required
        />
      </div>
      <div className="wizard__actions">
        <span />
        <Button type="submit" variant="primary" size="lg" loading={submitting} disabled={setupClosed}>
          Create account
        </Button>
      </div>
    </form>
  );
}
