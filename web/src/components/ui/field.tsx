import { useId, useState, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react';
import styles from './field.module.css';

interface FieldFrameProps {
  id: string;
  label: ReactNode;
  error?: string | null;
  hint?: ReactNode;
  children: ReactNode;
  /** Extra content beside the label (a tooltip, an edit link). */
  labelExtra?: ReactNode;
}

/** Label, control, hint and error message, wired together for assistive technology. */
function FieldFrame({ id, label, error, hint, children, labelExtra }: FieldFrameProps) {
  return (
    <div className={styles.field}>
      <div className={styles.labelRow}>
        <label htmlFor={id} className={styles.label}>
          {label}
        </label>
        {labelExtra}
      </div>
      {children}
      {hint && !error ? (
        <p id={`${id}-hint`} className={styles.hint}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className={styles.error} role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value'> & {
  label: ReactNode;
  value: string;
  onChange: (value: string) => void;
  error?: string | null;
  hint?: ReactNode;
  labelExtra?: ReactNode;
  /** A control inside the input's box, at its end (the show/hide toggle). */
  trailing?: ReactNode;
};

/** A labelled text input that reports its value as a string. */
export function TextField({ label, value, onChange, error, hint, labelExtra, trailing, id, className, ...rest }: InputProps) {
  const generated = useId();
  const inputId = id ?? generated;
  const describedBy = [error ? `${inputId}-error` : '', hint && !error ? `${inputId}-hint` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <FieldFrame id={inputId} label={label} error={error} hint={hint} labelExtra={labelExtra}>
      <div className={`${styles.control} ${trailing ? styles.withTrailing : ''}`}>
        <input
          id={inputId}
          className={[styles.input, error ? styles.invalid : '', className ?? ''].filter(Boolean).join(' ')}
          value={value}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          onChange={(event) => onChange(event.target.value)}
          {...rest}
        />
        {trailing}
      </div>
    </FieldFrame>
  );
}

/** A password input with a show/hide toggle. */
export function PasswordField(props: Omit<InputProps, 'type' | 'trailing'>) {
  const [visible, setVisible] = useState(false);
  const name = typeof props.label === 'string' ? props.label : 'password';
  return (
    <TextField
      {...props}
      type={visible ? 'text' : 'password'}
      trailing={
        <button
          type="button"
          className={styles.toggle}
          aria-label={`${visible ? 'Hide' : 'Show'} ${name.toLowerCase()}`}
          aria-pressed={visible}
          onClick={() => setVisible((value) => !value)}
        >
          {visible ? 'Hide' : 'Show'}
        </button>
      }
    />
  );
}

type TextAreaProps = Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'onChange' | 'value'> & {
  label: ReactNode;
  value: string;
  onChange: (value: string) => void;
  error?: string | null;
  hint?: ReactNode;
};

/** A labelled multi-line text input (a reason someone will read). */
export function TextAreaField({ label, value, onChange, error, hint, id, className, ...rest }: TextAreaProps) {
  const generated = useId();
  const areaId = id ?? generated;
  const describedBy = [error ? `${areaId}-error` : '', hint && !error ? `${areaId}-hint` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <FieldFrame id={areaId} label={label} error={error} hint={hint}>
      <textarea
        id={areaId}
        className={[styles.input, styles.textarea, error ? styles.invalid : '', className ?? ''].filter(Boolean).join(' ')}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        onChange={(event) => onChange(event.target.value)}
        {...rest}
      />
    </FieldFrame>
  );
}

export interface Choice {
  value: string;
  label: string;
}

type SelectProps = Omit<SelectHTMLAttributes<HTMLSelectElement>, 'onChange' | 'value'> & {
  label: ReactNode;
  value: string;
  onChange: (value: string) => void;
  options: Choice[];
  placeholder?: string;
  error?: string | null;
  hint?: ReactNode;
  labelExtra?: ReactNode;
};

/** A labelled native select. */
export function SelectField({ label, value, onChange, options, placeholder, error, hint, labelExtra, id, ...rest }: SelectProps) {
  const generated = useId();
  const selectId = id ?? generated;
  return (
    <FieldFrame id={selectId} label={label} error={error} hint={hint} labelExtra={labelExtra}>
      <select
        id={selectId}
        className={`${styles.input} ${styles.select} ${error ? styles.invalid : ''}`}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${selectId}-error` : undefined}
        onChange={(event) => onChange(event.target.value)}
        {...rest}
      >
        {placeholder !== undefined ? (
          <option value="" disabled>
            {placeholder}
          </option>
        ) : null}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </FieldFrame>
  );
}

/** A checkbox with its label to the right. */
export function CheckboxField({ label, checked, onChange, error, disabled }: { label: ReactNode; checked: boolean; onChange: (checked: boolean) => void; error?: string | null; disabled?: boolean }) {
  const id = useId();
  return (
    <div className={styles.field}>
      <label className={styles.check} htmlFor={id}>
        <input id={id} type="checkbox" checked={checked} disabled={disabled} onChange={(event) => onChange(event.target.checked)} aria-invalid={error ? true : undefined} />
        <span>{label}</span>
      </label>
      {error ? (
        <p className={styles.error} role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** A small "i" button whose text shows on hover and focus (the relationship tooltip). */
export function InfoTip({ text, label = 'More information' }: { text: string; label?: string }) {
  return (
    <span className={styles.tip}>
      <button type="button" className={styles.tipButton} aria-label={`${label}: ${text}`}>
        i
      </button>
      <span role="tooltip" className={styles.tipText}>
        {text}
      </span>
    </span>
  );
}
