/** Display rules shared by cards and profiles. */

/** Cuts text longer than `max` characters and marks the cut with an ellipsis. */
export function truncate(text: string | null | undefined, max: number): string {
  const value = (text ?? '').trim();
  return value.length > max ? `${value.slice(0, max).trimEnd()}...` : value;
}

/** Miles with two decimals, as the spec shows distances; null for virtual locations. */
export function formatMiles(distance: number | null | undefined): string | null {
  if (distance === null || distance === undefined || !Number.isFinite(distance)) return null;
  return `${distance.toFixed(2)} miles`;
}

/** Up to two initials, used when a logo is missing or fails to load. */
export function initials(name: string): string {
  const words = name
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .split(/\s+/)
    .filter(Boolean);
  if (words.length === 0) return '?';
  const letters = words.length === 1 ? words[0]!.slice(0, 2) : `${words[0]![0]}${words[words.length - 1]![0]}`;
  return letters.toUpperCase();
}

/** Adds https:// unless the link already contains http. */
export function withProtocol(url: string): string {
  const trimmed = url.trim();
  return trimmed.includes('http') ? trimmed : `https://${trimmed}`;
}

/** F means Female; anything else is shown as Male, as the clinician profile specifies. */
export function genderLabel(gender: string | null | undefined): string | null {
  if (!gender) return null;
  return gender.toUpperCase() === 'F' ? 'Female' : 'Male';
}

/** A dot-separated run of the local part: ASCII letters, digits and the RFC 5322 atom signs. */
const EMAIL_LOCAL = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const EMAIL_LABEL = /^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

/**
 * The one email rule, the server's (crates/domain Email::parse; both test
 * crates/domain/src/email_cases.json): a local part of ASCII letters, digits and
 * !#$%&'*+/=?^_`{|}~- in dot-separated runs (64 at most), a domain of two or more labels of
 * letters, digits and inner hyphens whose last has a letter and two or more characters, 254 in all.
 */
export function isValidEmail(email: string): boolean {
  if (email.length > 254) return false;
  const at = email.indexOf('@');
  if (at < 0 || at !== email.lastIndexOf('@')) return false;
  const local = email.slice(0, at);
  const labels = email.slice(at + 1).split('.');
  const top = labels[labels.length - 1] ?? '';
  return local.length <= 64 && EMAIL_LOCAL.test(local) && labels.length >= 2 && labels.every((label) => EMAIL_LABEL.test(label)) && top.length >= 2 && /[A-Za-z]/.test(top);
}

/** An external maps route to a destination, from the user's position when it is known. */
export function directionsUrl(
  destination: { lat: number; lng: number },
  origin?: { lat: number; lng: number } | null,
): string {
  const params = new URLSearchParams({ api: '1', destination: `${destination.lat},${destination.lng}` });
  if (origin) params.set('origin', `${origin.lat},${origin.lng}`);
  return `https://www.google.com/maps/dir/?${params.toString()}`;
}

/**
 * US dollars from the server's decimal string ("75.00", "-5.50", "1234.5") as "$75.00", "-$5.50",
 * "$1,234.50". The digits are only regrouped, never turned into a float, so what the server
 * computed in cents is shown exactly. Anything that is not a decimal is shown as a dash.
 */
export function formatMoney(amount: string | number | null | undefined): string {
  if (amount === null || amount === undefined) return '—';
  const text = String(amount).trim();
  const match = /^(-)?(\d+)(?:\.(\d*))?$/.exec(text);
  if (!match) return '—';
  const [, minus, whole, fraction = ''] = match;
  const wholeDigits = whole!.replace(/^0+(?=\d)/, '');
  const grouped = groupThousands(wholeDigits);
  // Cents: two places, padded; a longer fraction is not what the contract sends, so it is cut, not rounded.
  const cents = `${fraction}00`.slice(0, 2);
  const isZero = /^0+$/.test(wholeDigits) && /^0*$/.test(fraction);
  return `${minus && !isZero ? '-' : ''}$${grouped}.${cents}`;
}

/** A count as members read it: "94,086", not "94086". */
export function formatCount(count: number): string {
  return groupThousands(String(count));
}

/** Digits with a comma before every group of three from the right: "1234567" → "1,234,567". */
function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** A date-time from the server as MM/DD/YYYY in UTC (spec 9), or a dash when there is none. */
export function formatDate(value: string | null | undefined): string {
  if (!value) return '—';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '—';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(date.getUTCMonth() + 1)}/${pad(date.getUTCDate())}/${date.getUTCFullYear()}`;
}
