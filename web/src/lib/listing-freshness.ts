/**
 * How fresh a listing is (docs/listings-contract.md): the clinic confirms it, and members are told
 * "Not verified recently" once it has gone unconfirmed for more than 120 days. Decided here from
 * today's date, so a page shows it the day it becomes true.
 */
export const NOT_VERIFIED_RECENTLY_DAYS = 120;

const DAY_MS = 24 * 60 * 60 * 1000;

/** The UTC calendar day of a timestamp or a `YYYY-MM-DD` date, in days since 1970. */
function utcDay(value: string | Date): number | null {
  const time = typeof value === 'string' ? Date.parse(value.length === 10 ? `${value}T00:00:00Z` : value) : value.getTime();
  return Number.isFinite(time) ? Math.floor(time / DAY_MS) : null;
}

/**
 * Whether a listing last confirmed at `lastVerified` (null: never) shows "Not verified recently"
 * on `today`. `undefined` (a server that does not say) shows nothing.
 */
export function notVerifiedRecently(lastVerified: string | null | undefined, today: Date = new Date()): boolean {
  if (lastVerified === undefined) return false;
  if (lastVerified === null) return true;
  const day = utcDay(lastVerified);
  const now = utcDay(today);
  return day === null || now === null || now - day > NOT_VERIFIED_RECENTLY_DAYS;
}

/** The day a listing was confirmed as the spec shows dates: MM/DD/YYYY (UTC). */
export function verifiedOn(lastVerified: string): string {
  const day = utcDay(lastVerified);
  if (day === null) return '';
  const date = new Date(day * DAY_MS);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(date.getUTCMonth() + 1)}/${two(date.getUTCDate())}/${date.getUTCFullYear()}`;
}
