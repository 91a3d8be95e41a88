import { useState } from 'react';
import { Link } from 'react-router';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm } from 'react-hook-form';
import { z } from 'zod';
import { setupApi } from '../../api/endpoints';
import { ApiError, errorMessage } from '../../api/errors';
import type { InitialAdminRequest } from '../../api/model';
import { useAuth } from '../../auth/AuthContext';
import { Button } from '../../components/Button';
import { FormError, TextField } from '../../components/Field';
import { PasswordField } from '../../components/PasswordField';
import { applyServerErrors } from '../../lib/forms';
import { checkPassword } from '../../lib/passwordRules';
import { emailProblem } from '../../lib/validation';

/** Step 1 of the wizard; its output is the generated body of POST /setup/initial-admin. */
export const accountSchema = z
  .object({
    full_name: z.string().trim().min(1, 'Enter your name.').max(100, 'Use at most 100 characters.'),
    email: z
      .string()
      .trim()
      .superRefine((v, ctx) => {
        const problem = emailProblem(v);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      }),
    company_name: z.string().trim().max(100, 'Use at most 100 characters.'),
    password: z.string().refine((v) => checkPassword(v).valid, 'Your password doesn’t meet all the requirements below.'),
    confirm: z.string().min(1, 'Enter the password again.'),
  })
  .refine((v) => !v.confirm || v.confirm === v.password, { path: ['confirm'], message: 'The passwords don’t match.' })
  .transform(({ confirm: _confirm, ...body }) => body) satisfies z.ZodType<InitialAdminRequest, unknown>;

type AccountValues = z.input<typeof accountSchema>;
type AccountOutput = z.output<typeof accountSchema>;
const FIELDS: (keyof AccountValues)[] = ['full_name', 'email', 'company_name', 'password', 'confirm'];

export function AccountStep({ onDone }: { onDone: (note: string) => void }) {
  const { adoptSession } = useAuth();
  const [formError, setFormError] = useState<string | null>(null);
  const [setupClosed, setSetupClosed] = useState(false);
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<AccountValues, unknown, AccountOutput>({
    resolver: zodResolver(accountSchema),
    defaultValues: { email: '', full_name: '', company_name: '', password: '', confirm: '' },
  });

  const onSubmit = handleSubmit(async (body) => {
    setFormError(null);
    let res;
    try {
      res = await setupApi.initialAdmin(body);
    } catch (err) {
      if (err instanceof ApiError && err.status === 403) setSetupClosed(true);
      if (err instanceof ApiError && err.status === 404) {
        setFormError('The server does not offer first-run setup yet (404). Try again once it is up to date.');
        return;
      }
      // The server calls the password `new_password` in some answers.
      if (err instanceof ApiError && err.fieldErrors.new_password && !err.fieldErrors.password) {
        setError('password', { type: 'server', message: err.fieldErrors.new_password }, { shouldFocus: true });
      }
      setFormError(applyServerErrors(err, setError, FIELDS));
      return;
    }
    try {
      await adoptSession({ access_token: res.access_token ?? undefined, refresh_token: res.refresh_token ?? undefined });
    } catch (err) {
      setFormError(`Your account was created, but signing you in failed: ${errorMessage(err)} Sign in to continue.`);
      setSetupClosed(true);
      return;
    }
    onDone(`Administrator ${body.email} created`);
  });

  return (
    <form className="form" onSubmit={(e) => void onSubmit(e)} noValidate aria-label="Create your account">
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
          {...register('full_name')}
          autoComplete="name"
          autoFocus
          error={errors.full_name?.message}
          required
        />
        <TextField
          label="Work email"
          {...register('email')}
          type="email"
          inputMode="email"
          autoComplete="email"
          error={errors.email?.message}
          hint="You’ll sign in with this address."
          required
        />
      </div>
      <TextField
        label="Company name"
        {...register('company_name')}
        autoComplete="organization"
        error={errors.company_name?.message}
        hint="Optional. Shown on quotes and documents; you can change it later in Settings."
      />
      <div className="form__stack">
        <Controller
          control={control}
          name="password"
          render={({ field }) => (
            <PasswordField label="Password" autoComplete="new-password" {...field} error={errors.password?.message} showRules required />
          )}
        />
        <Controller
          control={control}
          name="confirm"
          render={({ field }) => <PasswordField label="Confirm password" autoComplete="new-password" {...field} error={errors.confirm?.message} required />}
        />
      </div>
      <div className="wizard__actions">
        <span />
        <Button type="submit" variant="primary" size="lg" loading={isSubmitting} disabled={setupClosed}>
          Create account
        </Button>
      </div>
    </form>
  );
}
