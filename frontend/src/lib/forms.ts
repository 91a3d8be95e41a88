import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError, errorMessage } from '../api/errors';

/**
 * Puts a failed request onto a react-hook-form form: each 422 `details.errors[].field`
 * that names one of `fields` becomes that field's message; everything else (other
 * fields, a plain error) becomes the returned form-level sentence.
 */
export function applyServerErrors<T extends FieldValues>(err: unknown, setError: UseFormSetError<T>, fields: readonly Path<T>[]): string {
  if (!(err instanceof ApiError)) return errorMessage(err);
  const known = new Set<string>(fields);
  const leftOver: string[] = [];
  let first = true;
  for (const [field, message] of Object.entries(err.fieldErrors)) {
    // `body.sku` and `sku` both name the form's `sku`.
    const name = field.replace(/^body\./, '');
    if (known.has(name)) {
      setError(name as Path<T>, { type: 'server', message }, { shouldFocus: first });
      first = false;
    } else {
      leftOver.push(`${field}: ${message}`);
    }
  }
  if (first) return err.message;
  return leftOver.length ? `Please correct the highlighted fields. ${leftOver.join(' ')}` : 'Please correct the highlighted fields.';
}
