import { useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { usersApi } from '../../api/endpoints';
import { ApiError, errorMessage } from '../../api/errors';
import type { TeamUserCreate } from '../../api/model';
import { Button } from '../../components/Button';
import { FormError, SelectField, TextField } from '../../components/Field';
import { Modal } from '../../components/Modal';
import { PasswordField } from '../../components/PasswordField';
import { useToast } from '../../components/Toast';
import { checkPassword } from '../../lib/passwordRules';
import { emailProblem } from '../../lib/validation';

interface Values {
  first_name: string;
  last_name: string;
  email: string;
  account_type: 'admin' | 'operator';
  password: string;
}

const EMPTY: Values = { first_name: '', last_name: '', email: '', account_type: 'operator', password: '' };

export const ROLE_OPTIONS = [
  { value: 'operator', label: 'Operator — day-to-day work, no admin sections' },
  { value: 'admin', label: 'Administrator — everything, including team and settings' },
] as const;

export function validateMember(v: Values): Record<string, string> {
  const errs: Record<string, string> = {};
  const email = emailProblem(v.email);
  if (email) errs.email = email === 'Enter your email address.' ? 'Enter their email address.' : email;
  if (!checkPassword(v.password).valid) errs.password = 'The password doesn’t meet all the requirements below.';
  return errs;
}

/** Server answers to field errors: 422 `details.errors`, or a 400 `detail` that names a field. */
function serverFieldErrors(err: ApiError): Record<string, string> {
  const fe = { ...err.fieldErrors };
  if (err.status === 400 && !Object.keys(fe).length) {
    if (/email/i.test(err.message)) fe.email = err.message;
    else if (/password/i.test(err.message)) fe.password = err.message;
  }
  return fe;
}

/** Admins add administrators and operators (POST /admin/users/, CONTRACT 5.15). */
export function AddMemberModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Modal
      open={open}
      onClose={onClose}
      title="Add a team member"
      description="They sign in with this email and password. Share the password with them privately."
    >
      {open && <AddMemberForm onClose={onClose} />}
    </Modal>
  );
}

function AddMemberForm({ onClose }: { onClose: () => void }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [values, setValues] = useState<Values>(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);

  const create = useMutation({
    mutationFn: (body: TeamUserCreate) => usersApi.create(body),
    onSuccess: async (user) => {
      await queryClient.invalidateQueries({ queryKey: ['users'] });
      const name = user?.full_name || [values.first_name, values.last_name].filter(Boolean).join(' ') || values.email;
      toast.success('Team member added', `${name} can now sign in as ${values.account_type === 'admin' ? 'an administrator' : 'an operator'}.`);
      onClose();
    },
    onError: (err) => {
      if (err instanceof ApiError) {
        const fe = serverFieldErrors(err);
        setErrors(fe);
        setFormError(Object.keys(fe).length ? null : err.message);
      } else setFormError(errorMessage(err));
    },
  });

  const set = (k: keyof Values) => (e: { target: { value: string } }) => {
    setValues((v) => ({ ...v, [k]: e.target.value }));
    if (errors[k]) setErrors((prev) => ({ ...prev, [k]: '' }));
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const errs = validateMember(values);
    setErrors(errs);
    setFormError(null);
    if (Object.keys(errs).length) {
      document.querySelector<HTMLElement>(`.modal [name="${Object.keys(errs)[0]}"]`)?.focus();
      return;
    }
    create.mutate({
      email: values.email.trim(),
      password: values.password,
      first_name: values.first_name.trim() || null,
      last_name: values.last_name.trim() || null,
      account_type: values.account_type,
    });
  };

  return (
    <form className="form" onSubmit={onSubmit} noValidate aria-label="Add a team member">
      <FormError message={formError} />
      <div className="form__grid">
        <TextField label="First name" name="first_name" value={values.first_name} onChange={set('first_name')} error={errors.first_name} autoComplete="off" maxLength={100} />
        <TextField label="Last name" name="last_name" value={values.last_name} onChange={set('last_name')} error={errors.last_name} autoComplete="off" maxLength={100} />
      </div>
      <TextField label="Email" name="email" type="email" inputMode="email" value={values.email} onChange={set('email')} error={errors.email} autoComplete="off" required />
      <SelectField label="Role" name="account_type" value={values.account_type} onChange={set('account_type')} options={ROLE_OPTIONS} error={errors.account_type} required />
      <PasswordField label="Temporary password" name="password" autoComplete="new-password" value={values.password} onChange={set('password')} error={errors.password} showRules required />
      <div className="modal__footer modal__footer--inline">
        <Button variant="secondary" onClick={onClose} disabled={create.isPending}>
          Cancel
        </Button>
        <Button type="submit" variant="primary" loading={create.isPending}>
          Add member
        </Button>
      </div>
    </form>
  );
}
