import { useEffect, useState } from 'react';
import { isValidEmail } from '@/lib/format';
import { EMAIL_DEBOUNCE_MS } from '../utils/search-constants';

export const EMAIL_FIELD_ERROR = 'Please enter a valid e-mail';

/**
 * An email field checked after a 500 ms typing pause (marketplace spec, sections 5 and 9): the
 * value is then trimmed and lowercased, and only that settled value is valid or shows the error.
 * While the member is still typing (less than 500 ms since the last change) it is neither valid
 * (Notify me stays disabled) nor wrong (no error shows).
 */
export function useEmailField(initial = '') {
  const [field, setField] = useState({ value: initial, settled: true });
  useEffect(() => {
    if (field.settled) return;
    const timer = window.setTimeout(() => setField({ value: field.value.trim().toLowerCase(), settled: true }), EMAIL_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [field]);
  const checked = field.settled ? field.value : null;
  const valid = checked !== null && checked.length > 0 && isValidEmail(checked);
  const error = checked !== null && checked.length > 0 && !valid ? EMAIL_FIELD_ERROR : null;
  return { email: field.value, setEmail: (value: string) => setField({ value, settled: false }), valid, error };
}
