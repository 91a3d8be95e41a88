import { useState, type Dispatch, type ReactNode, type RefObject, type SetStateAction } from 'react';
import { useMutation } from '@tanstack/react-query';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, type FieldValues, type Path, type UseFormProps, type UseFormReturn } from 'react-hook-form';
import type { z } from 'zod';
import { errorMessage } from '../api/errors';
import { applyServerErrors } from '../lib/forms';
import { Button, type ButtonVariant } from './Button';
import { FormError } from './Field';
import { Modal } from './Modal';

/**
 * react-hook-form checked by a zod schema: the fields hold the schema's input (text as
 * typed), the submit receives its output (what the API takes).
 */
export function useZodForm<TIn extends FieldValues, TOut = TIn>(
  schema: z.ZodType<TOut, TIn>,
  options: Omit<UseFormProps<TIn, unknown, TOut>, 'resolver'> = {},
): UseFormReturn<TIn, unknown, TOut> {
  return useForm<TIn, unknown, TOut>({ ...options, resolver: zodResolver(schema) });
}

/** What the dialog's body may read while it renders. */
export interface FormDialogState {
  pending: boolean;
}

interface CommonProps<TIn extends FieldValues, TOut, TResult> {
  /** The form, from `useZodForm` (its fields are registered by the children). */
  form: UseFormReturn<TIn, unknown, TOut>;
  /** Sends the checked values; its promise's result goes to `onSuccess`. */
  submit: (values: TOut) => Promise<TResult>;
  /** After a successful submit (toast, invalidations), before the dialog closes. */
  onSuccess?: (result: TResult, values: TOut) => unknown;
  /**
   * The form's fields a 422 may name: each lands on its field, the rest in the banner.
   * Left out, a failure is one sentence in the banner (nothing is put on fields).
   */
  fields?: readonly Path<TIn>[];
  /**
   * A failure read by the dialog itself (e.g. a 400 sentence that names a field): return
   * the banner's message (null: none), or undefined to map it the usual way.
   */
  serverError?: (err: unknown) => string | null | undefined;
  /** A last check of the values before sending: a sentence stops the submit and shows in the banner. */
  check?: (values: TOut) => string | null;
  /** A form-level message shown when there is no failure to show (e.g. a list-level validation error). */
  fallbackError?: string | null;
  /** The banner's heading, e.g. "The profile was not saved". */
  errorTitle?: string;
  /** The banner's state, when the dialog also writes it (e.g. from a second action of its own). */
  errorState?: [string | null, Dispatch<SetStateAction<string | null>>];
  /** Cancel, Escape, the close button, and after a successful submit. */
  onClose: () => void;
  /** More state to forget on close (an idempotency key, a choice kept outside the form). */
  onReset?: () => void;
  /** The values the form goes back to on close (default: its default values). */
  resetTo?: TIn;
  /** The `<form>`'s id (the footer's buttons point at it) and accessible name. */
  id?: string;
  label: string;
  className?: string;
  submitLabel: ReactNode;
  submitVariant?: ButtonVariant;
  submitDisabled?: boolean;
  cancelLabel?: ReactNode;
  /** Cancel is disabled while the submit is under way. */
  lockWhilePending?: boolean;
  children: ReactNode | ((state: FormDialogState) => ReactNode);
}

interface InModalProps {
  embedded?: false;
  open: boolean;
  title: ReactNode;
  description?: ReactNode;
  size?: 'sm' | 'md' | 'lg';
  initialFocus?: RefObject<HTMLElement | null>;
  id: string;
}

interface EmbeddedProps {
  /** The form sits in a modal (or panel) of its own: the buttons go at its end. */
  embedded: true;
  footerClassName?: string;
}

export type FormDialogProps<TIn extends FieldValues, TOut, TResult> = CommonProps<TIn, TOut, TResult> & (InModalProps | EmbeddedProps);

/**
 * Every modal form: a react-hook-form + zod form in a `<Modal>`, its submit as a mutation
 * (the submit button spins and is disabled while it runs), a failure mapped onto the
 * fields by `applyServerErrors` (a 422's `details.errors[]` / `detail[]`), the rest in a
 * `<FormError>` banner, and Cancel. Closing resets the form.
 */
export function FormDialog<TIn extends FieldValues, TOut, TResult>(props: FormDialogProps<TIn, TOut, TResult>) {
  const { form, submit, onSuccess, fields, serverError, check, fallbackError, errorTitle, onClose, onReset, resetTo, id, label, className = 'form', children } = props;
  const ownError = useState<string | null>(null);
  const [formError, setFormError] = props.errorState ?? ownError;

  const close = () => {
    form.reset(resetTo);
    setFormError(null);
    onReset?.();
    onClose();
  };
  const mutation = useMutation({
    mutationFn: (values: TOut) => submit(values),
    onSuccess: async (result, values) => {
      await onSuccess?.(result, values);
      close();
    },
    onError: (err) => {
      const own = serverError?.(err);
      if (own !== undefined) setFormError(own);
      else setFormError(fields ? applyServerErrors(err, form.setError, fields) : errorMessage(err));
    },
  });
  const pending = mutation.isPending;

  const buttons = (
    <>
      <Button variant="secondary" onClick={close} disabled={props.lockWhilePending ? pending : undefined}>
        {props.cancelLabel ?? 'Cancel'}
      </Button>
      <Button
        variant={props.submitVariant ?? 'primary'}
        type="submit"
        form={props.embedded ? undefined : id}
        loading={pending}
        disabled={props.submitDisabled}
      >
        {props.submitLabel}
      </Button>
    </>
  );

  const body = (
    <form
      id={id}
      className={className}
      aria-label={label}
      noValidate
      onSubmit={(e) =>
        void form.handleSubmit((values) => {
          // Enter in a field while the last submit is under way sends nothing more.
          if (mutation.isPending) return;
          setFormError(null);
          const problem = check?.(values);
          if (problem) {
            setFormError(problem);
            return;
          }
          mutation.mutate(values);
        })(e)
      }
    >
      <FormError title={errorTitle} message={formError ?? fallbackError} />
      {typeof children === 'function' ? children({ pending }) : children}
      {props.embedded && <div className={props.footerClassName ?? 'modal__footer modal__footer--inline'}>{buttons}</div>}
    </form>
  );

  if (props.embedded) return body;
  return (
    <Modal open={props.open} onClose={close} title={props.title} description={props.description} size={props.size} initialFocus={props.initialFocus} footer={buttons}>
      {body}
    </Modal>
  );
}
