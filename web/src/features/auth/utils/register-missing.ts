/**
 * Why Register's Continue is disabled, said under it: the missing parts in the form's order
 * ('To continue, choose your employer, enter a valid company email and agree to the terms.'), or
 * null when nothing is missing.
 */
export function registerMissing(done: { employer: boolean; email: boolean; terms: boolean }): string | null {
  const missing = [
    done.employer ? null : 'choose your employer',
    done.email ? null : 'enter a valid company email',
    done.terms ? null : 'agree to the terms',
  ].filter((part): part is string => part !== null);
  if (missing.length === 0) return null;
  const list = missing.length === 1 ? missing[0] : `${missing.slice(0, -1).join(', ')} and ${missing[missing.length - 1]}`;
  return `To continue, ${list}.`;
}
