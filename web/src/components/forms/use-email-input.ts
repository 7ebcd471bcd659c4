import { useState } from 'react';
import { emailError, normaliseEmail } from '@/lib/validation';

type EmailMessages = Parameters<typeof emailError>[1];

/**
 * One email input's state for `EmailField`: the value (or `fallback` while it is empty), its
 * message (shown once the field is left or the form submitted) and `submit`, which shows the
 * message, normalises the value and returns it when it is valid (else null).
 */
export function useEmailInput(initial: string | (() => string), messages: EmailMessages, fallback = '') {
  const [email, setEmail] = useState(initial);
  const [touched, setTouched] = useState(false);
  // The server's word on the address after a submit, shown until it is changed.
  const [serverError, setServerError] = useState<string | null>(null);
  const value = email || fallback;
  const message = emailError(value, messages);
  return {
    value,
    message,
    field: {
      value,
      onChange: (next: string) => {
        setEmail(next);
        setServerError(null);
      },
      onBlur: () => setTouched(true),
      error: (touched ? message : null) ?? serverError,
    },
    /** Shows the server's refusal of the address at the field. */
    showServerError: setServerError,
    submit(): string | null {
      setTouched(true);
      const normalised = normaliseEmail(value);
      setEmail(normalised);
      return emailError(normalised) ? null : normalised;
    },
  };
}
