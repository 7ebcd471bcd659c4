import type { Employer } from '@/api/market/types';

/** An employer the list does not know: kept by name, treated as inactive (spec 2.2). */
export interface ChosenEmployer {
  id: number | string | null;
  companyName: string;
  status: Employer['status'];
}

/**
 * Matches a typed name against the employers: an exact match first, then a prefix match, both
 * case-insensitive. With no match, the name becomes an inactive employer of that name.
 */
export function matchEmployer(typed: string, employers: Employer[]): ChosenEmployer | null {
  const name = typed.trim();
  if (!name) return null;
  const lower = name.toLowerCase();
  const exact = employers.find((employer) => employer.companyName.toLowerCase() === lower);
  if (exact) return exact;
  const prefix = employers.find((employer) => employer.companyName.toLowerCase().startsWith(lower));
  if (prefix) return prefix;
  return { id: null, companyName: name, status: 'inactive' };
}

/** Whether the typed name needs its own "use this name" option (no exact or prefix match). */
export function typedNameIsUnknown(typed: string, employers: Employer[]): boolean {
  const match = matchEmployer(typed, employers);
  return match !== null && match.id === null;
}
