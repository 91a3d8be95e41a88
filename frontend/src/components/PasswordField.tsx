import { useId, useState, type InputHTMLAttributes } from 'react';
import { Check, Eye, EyeOff, X } from 'lucide-react';
import { checkPassword } from '../lib/passwordRules';
import { Field } from './Field';

interface PasswordFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> {
  label: string;
  error?: string | null;
  hint?: string;
  /** Show the live checklist of spec 5.5 under the field. */
  showRules?: boolean;
}

export function PasswordField({ label, error, hint, showRules, value, ...input }: PasswordFieldProps) {
  const [visible, setVisible] = useState(false);
  const rulesId = useId();
  const text = typeof value === 'string' ? value : '';
  const { results } = checkPassword(text);
  return (
    <Field
      label={label}
      error={error}
      hint={hint}
      required={input.required}
      id={input.id}
      after={
        showRules ? (
          <ul className="rules" id={rulesId} aria-label="Password requirements">
            {results.map((r) => (
              <li key={r.id} className={r.ok ? 'is-ok' : undefined} data-rule={r.id} data-ok={r.ok}>
                {r.ok ? <Check size={14} aria-hidden="true" /> : <X size={14} aria-hidden="true" />}
                <span>{r.label}</span>
                <span className="sr-only">{r.ok ? '(met)' : '(not met yet)'}</span>
              </li>
            ))}
          </ul>
        ) : undefined
      }
    >
      <PasswordInput
        {...input}
        value={value}
        visible={visible}
        onToggle={() => setVisible((v) => !v)}
        aria-describedby={showRules ? rulesId : undefined}
      />
    </Field>
  );
}

function PasswordInput({
  visible,
  onToggle,
  ...input
}: InputHTMLAttributes<HTMLInputElement> & { visible: boolean; onToggle: () => void }) {
  return (
    <div className="input-group">
      <input className="input" type={visible ? 'text' : 'password'} {...input} />
      <button
        type="button"
        className="icon-btn input-group__btn"
        onClick={onToggle}
        aria-label={visible ? 'Hide password' : 'Show password'}
        aria-pressed={visible}
      >
        {visible ? <EyeOff size={16} /> : <Eye size={16} />}
      </button>
    </div>
  );
}
