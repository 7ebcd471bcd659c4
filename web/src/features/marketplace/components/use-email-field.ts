import { useEffect, useState } from 'react';
import { isValidEmail } from '@/lib/format';
import { EMAIL_DEBOUNCE_MS } from '../utils/search-constants';

/** An email field that is trimmed and lowercased after a 500 ms typing pause. */
export function useEmailField(initial = '') {
  const [email, setEmail] = useState(initial);
  useEffect(() => {
    const normalised = email.trim().toLowerCase();
    if (normalised === email) return;
    const timer = window.setTimeout(() => setEmail(normalised), EMAIL_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [email]);
  const valid = email.length > 0 && isValidEmail(email);
  const showError = email.length > 0 && !valid && email === email.trim().toLowerCase();
  return { email, setEmail, valid, error: showError ? 'Please enter a valid e-mail' : null };
}
