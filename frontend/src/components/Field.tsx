import {
  cloneElement,
  isValidElement,
  useId,
  type InputHTMLAttributes,
  type ReactElement,
  type ReactNode,
  type Ref,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react';

interface FieldShellProps {
  label: ReactNode;
  hint?: ReactNode;
  error?: string | null;
  required?: boolean;
  /** Extra content under the control, e.g. the password rules. */
  after?: ReactNode;
  className?: string;
  children: ReactElement<{ id?: string; 'aria-describedby'?: string; 'aria-invalid'?: boolean; required?: boolean }>;
  id?: string;
}

/** Label + control + hint + error, wired with ids for assistive technology. */
export function Field({ label, hint, error, required, after, className, children, id: givenId }: FieldShellProps) {
  const autoId = useId();
  const id = givenId ?? children.props.id ?? `f${autoId}`;
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [children.props['aria-describedby'], hintId, errorId].filter(Boolean).join(' ') || undefined;
  const control = isValidElement(children)
    ? cloneElement(children, {
        id,
        'aria-describedby': describedBy,
        'aria-invalid': error ? true : undefined,
        required: required ?? children.props.required,
      })
    : children;
  return (
    <div className={['field', error ? 'field--error' : '', className ?? ''].filter(Boolean).join(' ')}>
      <label className="field__label" htmlFor={id}>
        {label}
        {required && (
          <span className="field__required" aria-hidden="true">
            {' '}
            *
          </span>
        )}
      </label>
      {control}
      {hint && !error && (
        <p className="field__hint" id={hintId}>
          {hint}
        </p>
      )}
      {error && (
        <p className="field__error" id={errorId} role="alert">
          {error}
        </p>
      )}
      {after}
    </div>
  );
}

/** `ref` passes through to the element (React 19), so `register()` of react-hook-form spreads in. */
type InputProps = InputHTMLAttributes<HTMLInputElement> & { ref?: Ref<HTMLInputElement> };

export function TextField({
  label,
  hint,
  error,
  after,
  className,
  ...input
}: InputProps & { label: ReactNode; hint?: ReactNode; error?: string | null; after?: ReactNode }) {
  return (
    <Field label={label} hint={hint} error={error} required={input.required} after={after} className={className} id={input.id}>
      <input className="input" {...input} />
    </Field>
  );
}

export function TextAreaField({
  label,
  hint,
  error,
  className,
  ...area
}: TextareaHTMLAttributes<HTMLTextAreaElement> & { ref?: Ref<HTMLTextAreaElement>; label: ReactNode; hint?: ReactNode; error?: string | null }) {
  return (
    <Field label={label} hint={hint} error={error} required={area.required} className={className} id={area.id}>
      <textarea className="input input--area" rows={3} {...area} />
    </Field>
  );
}

export interface Option {
  value: string;
  label: string;
}

export function SelectField({
  label,
  hint,
  error,
  options,
  placeholder,
  className,
  ...select
}: SelectHTMLAttributes<HTMLSelectElement> & {
  ref?: Ref<HTMLSelectElement>;
  label: ReactNode;
  hint?: ReactNode;
  error?: string | null;
  options: readonly Option[];
  placeholder?: string;
}) {
  return (
    <Field label={label} hint={hint} error={error} required={select.required} className={className} id={select.id}>
      <select className="input input--select" {...select}>
        {placeholder !== undefined && <option value="">{placeholder}</option>}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </Field>
  );
}

export function CheckboxField({
  label,
  hint,
  className,
  ...input
}: InputProps & { label: ReactNode; hint?: ReactNode }) {
  const autoId = useId();
  const id = input.id ?? `c${autoId}`;
  return (
    <div className={['checkbox', className ?? ''].filter(Boolean).join(' ')}>
      <input type="checkbox" id={id} {...input} aria-describedby={hint ? `${id}-hint` : undefined} />
      <div>
        <label htmlFor={id}>{label}</label>
        {hint && (
          <p className="field__hint" id={`${id}-hint`}>
            {hint}
          </p>
        )}
      </div>
    </div>
  );
}

/** A banner for a form-level error (the sentence part of an ApiError). */
export function FormError({ message, title }: { message: string | null | undefined; title?: string }) {
  if (!message) return null;
  return (
    <div className="alert alert--error" role="alert">
      {title && <strong className="alert__title">{title}</strong>}
      <span>{message}</span>
    </div>
  );
}
