import { useQueryClient } from '@tanstack/react-query';
import { Controller } from 'react-hook-form';
import { z } from 'zod';
import { usersApi } from '../../api/endpoints';
import { ApiError } from '../../api/errors';
import type { TeamUserCreate } from '../../api/model';
import { SelectField, TextField } from '../../components/Field';
import { FormDialog, useZodForm } from '../../components/FormDialog';
import { Modal } from '../../components/Modal';
import { PasswordField } from '../../components/PasswordField';
import { useToast } from '../../components/Toast';
import { checkPassword } from '../../lib/passwordRules';
import { emailProblem } from '../../lib/validation';
import { queryKeys } from '../../api/queryKeys';

export const ROLE_OPTIONS = [
  { value: 'operator', label: 'Operator — day-to-day work, no admin sections' },
  { value: 'admin', label: 'Administrator — everything, including team and settings' },
] as const;

const optionalName = z
  .string()
  .trim()
  .max(100, 'Use at most 100 characters.')
  .transform((v) => v || null);

/** The add-member form; its output is the generated body of POST /admin/users/. */
export const memberSchema = z.object({
  first_name: optionalName,
  last_name: optionalName,
  email: z
    .string()
    .trim()
    .superRefine((v, ctx) => {
      const problem = emailProblem(v);
      if (problem) ctx.addIssue({ code: 'custom', message: problem === 'Enter your email address.' ? 'Enter their email address.' : problem });
    }),
  account_type: z.enum(['operator', 'admin']),
  password: z.string().refine((v) => checkPassword(v).valid, 'The password doesn’t meet all the requirements below.'),
}) satisfies z.ZodType<TeamUserCreate, unknown>;

type MemberValues = z.input<typeof memberSchema>;
const FIELDS = Object.keys(memberSchema.shape) as (keyof MemberValues)[];
const EMPTY: MemberValues = { first_name: '', last_name: '', email: '', account_type: 'operator', password: '' };

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
  const form = useZodForm(memberSchema, { defaultValues: EMPTY });
  const {
    register,
    control,
    setError,
    formState: { errors },
  } = form;

  return (
    <FormDialog
      embedded
      form={form}
      onClose={onClose}
      label="Add a team member"
      submitLabel="Add member"
      lockWhilePending
      submit={(body) => usersApi.create(body)}
      onSuccess={async (user, body) => {
        await queryClient.invalidateQueries({ queryKey: queryKeys.users.all });
        const name = user.full_name || [body.first_name, body.last_name].filter(Boolean).join(' ') || body.email;
        toast.success('Team member added', `${name} can now sign in as ${body.account_type === 'admin' ? 'an administrator' : 'an operator'}.`);
      }}
      serverError={(err) => {
        // A taken address is a 400 sentence, not a 422 naming the field: put it on the field it names.
        if (!(err instanceof ApiError && err.status === 400 && !Object.keys(err.fieldErrors).length)) return undefined;
        const field = /email/i.test(err.message) ? 'email' : /password/i.test(err.message) ? 'password' : null;
        if (!field) return undefined;
        setError(field, { type: 'server', message: err.message }, { shouldFocus: true });
        return null;
      }}
      fields={FIELDS}
    >
      <div className="form__grid">
        <TextField label="First name" {...register('first_name')} error={errors.first_name?.message} autoComplete="off" maxLength={100} />
        <TextField label="Last name" {...register('last_name')} error={errors.last_name?.message} autoComplete="off" maxLength={100} />
      </div>
      <TextField label="Email" type="email" inputMode="email" {...register('email')} error={errors.email?.message} autoComplete="off" required />
      <SelectField label="Role" {...register('account_type')} options={ROLE_OPTIONS} error={errors.account_type?.message} required />
      <Controller
        control={control}
        name="password"
        render={({ field }) => (
          <PasswordField label="Temporary password" autoComplete="new-password" {...field} error={errors.password?.message} showRules required />
        )}
      />
    </FormDialog>
  );
}
