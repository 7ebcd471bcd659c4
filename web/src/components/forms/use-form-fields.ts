import { useState } from 'react';

/** A message per field; a missing, null or empty entry means the field is valid. */
export type FieldErrors<K extends string> = Partial<Record<K, string | null | undefined>>;

/** What a field component takes from its form: the value, the change and blur handlers and the message to show. */
export interface FieldBinding<T = string> {
  value: T;
  onChange: (value: T) => void;
  onBlur?: () => void;
  error?: string | null;
}

interface FormFieldsOptions {
  /** Leaving a field shows its message (the eligibility forms); otherwise only a submit does (the account forms). */
  touchOnBlur?: boolean;
}

/**
 * The state of a form of plain fields: the values, the fields whose messages show, and the
 * messages of `validate`, computed on every render so a submit button can wait for a valid form.
 * The rules and their exact texts stay in `lib/validation`; this hook only decides when a message
 * shows: once its field is touched (left, with `touchOnBlur`) or after `touchAll` (a submit).
 */
export function useFormFields<V extends object, K extends string = Extract<keyof V, string>>(
  initial: V | (() => V),
  validate: (values: V) => FieldErrors<K>,
  { touchOnBlur = true }: FormFieldsOptions = {},
) {
  const [values, setValues] = useState<V>(initial);
  const [touched, setTouched] = useState<Partial<Record<K, boolean>>>({});
  const [allTouched, setAllTouched] = useState(false);
  // Set by the member's own changes (not by `setValues`), for the leave-page guard.
  const [dirty, setDirty] = useState(false);
  // The server's word on a field after a submit (a date in the future, too long a name): shown at
  // the field until the field changes.
  const [serverErrors, setServerErrors] = useState<Partial<Record<K, string>>>({});
  const errors = validate(values);
  const valid = Object.values(errors).every((message) => !message);

  /** A change the member made: merges `update` (or applies it) and marks the form dirty. */
  function change(update: Partial<V> | ((current: V) => V)) {
    setDirty(true);
    setValues((current) => (typeof update === 'function' ? update(current) : { ...current, ...update }));
  }

  function set<F extends keyof V>(key: F, value: V[F]) {
    change((current) => ({ ...current, [key]: value }));
    setServerErrors((current) => (key in current ? { ...current, [key]: undefined } : current));
  }

  /**
   * Shows a refusal of the server (`lib/api-client` fieldError) at its field; false when the form
   * has no such field (the caller shows it elsewhere).
   */
  function showServerError(failure: { field: string; message: string } | null): boolean {
    if (!failure || !(failure.field in (values as Record<string, unknown>))) return false;
    setServerErrors((current) => ({ ...current, [failure.field]: failure.message }));
    return true;
  }

  function touch(key: K) {
    setTouched((current) => (current[key] ? current : { ...current, [key]: true }));
  }

  /** The message of `key` once it may show. */
  function shown(key: K): string | undefined {
    const own = allTouched || touched[key] ? (errors[key] ?? undefined) : undefined;
    return own || serverErrors[key] || undefined;
  }

  /** The binding a field component spreads: value, onChange, onBlur and the shown message. */
  function field<F extends keyof V & K>(key: F): FieldBinding<V[F]> {
    return { value: values[key], onChange: (value) => set(key, value), onBlur: touchOnBlur ? () => touch(key) : undefined, error: shown(key) };
  }

  /** Starts over with `next` and no messages showing. */
  function reset(next: V) {
    setValues(next);
    setTouched({});
    setAllTouched(false);
  }

  return { values, setValues, change, set, errors, valid, dirty, touch, touchAll: () => setAllTouched(true), shown, field, reset, showServerError };
}
