/**
 * Validation rules, input masks and the exact messages of the accounts specification
 * (section 5). Every form of the accounts screens takes its texts from here.
 */
import { isValidEmail } from '@/lib/format';

export const MESSAGES = {
  required: 'This field is required',
  emailInvalid: 'E-mail must be valid',
  emailInvalidAlt: 'Please enter a valid e-mail',
  emailRequired: 'E-mail is required',
  phone: 'Phone number must be in a valid format (XXX XXX XXXX)',
  specialCharacters: 'Special characters not allowed',
  idFormat: 'ID should contain 9 digits, Please enter your ID in XXX-XXXXXX format',
  invalidDate: 'Invalid date format',
  passwordRequired: 'Password is required',
  passwordRules: 'Password does not meet the security requirements',
  passwordMatch: 'Password must match',
  passwordSameAsOld: 'For security reasons, your new password cannot be the same as your old one.',
  passwordInvalid: 'Invalid password',
  passwordsDoNotMatch: 'Passwords do not match.',
  passwordAuthRules: 'Min. 8 characters with at least one capital letter, a number and a special character.',
  passwordType: 'Please type password.',
  emailRegistered: 'This e-mail is already registered.',
  emailNotReachable: 'This email is not reachable or does not exist',
  somethingWrong: 'Oops. Something went wrong',
  tryLater: 'Something went wrong. Please try again later.',
} as const;

/** Lower-cases and trims an email, as every email field does when it loses focus. */
export function normaliseEmail(value: string): string {
  return value.trim().toLowerCase();
}

/** Null when valid; otherwise the message for this form's wording of "invalid". */
export function emailError(
  value: string,
  { required = true, requiredMessage = MESSAGES.emailRequired, invalidMessage = MESSAGES.emailInvalid }: { required?: boolean; requiredMessage?: string; invalidMessage?: string } = {},
): string | null {
  const email = value.trim();
  if (!email) return required ? requiredMessage : null;
  return isValidEmail(email) ? null : invalidMessage;
}

export function requiredError(value: string | null | undefined): string | null {
  return value && value.trim() ? null : MESSAGES.required;
}

// ---- Phone ---------------------------------------------------------------------------------

/**
 * The spec's pattern: an optional +1 country code, then 3, 3 and 4 digits separated by a space,
 * dot or dash. North American area codes and exchanges start with 2-9, so a number whose digits
 * slid by one (a country code read as part of the area code) fails rather than passing as
 * someone else's number.
 */
const PHONE_PATTERN = /^(\+?1[\s.-]?)?\(?[2-9]\d{2}\)?[\s.-]?[2-9]\d{2}[\s.-]?\d{4}$/;

/** Groups national digits 3-3-4 with spaces, keeping any digits past the tenth (the message then shows). */
function groupDigits(digits: string): string {
  if (digits.length <= 3) return digits;
  if (digits.length <= 6) return `${digits.slice(0, 3)} ${digits.slice(3)}`;
  return `${digits.slice(0, 3)} ${digits.slice(3, 6)} ${digits.slice(6)}`;
}

/**
 * The phone mask: what was typed as 'XXX XXX XXXX', behind '+1 ' when a country code was typed.
 * No North American area code starts with 1, so a leading 1 is always the country code. The
 * mask never drops, adds or moves a digit: '+1 303 555 0123' stays that number (the old mask
 * kept the first ten digits and made it '130 355 5012'), and digits past the tenth stay for the
 * message to point at.
 */
export function formatPhone(input: string): string {
  const digits = input.replace(/\D/g, '');
  if (!digits) return input.trim().startsWith('+') ? '+' : '';
  if (!digits.startsWith('1')) return groupDigits(digits);
  const national = digits.slice(1);
  return national ? `+1 ${groupDigits(national)}` : '+1';
}

/** A stored number (E.164, '+13035550123') as the forms and screens show it: '303 555 0123'. */
export function displayPhone(stored: string | null | undefined): string {
  if (!stored) return '';
  const e164 = /^\+1(\d{10})$/.exec(stored.trim());
  return e164 ? groupDigits(e164[1]!) : formatPhone(stored);
}

export function phoneError(value: string, { required = true }: { required?: boolean } = {}): string | null {
  const phone = value.trim();
  if (!phone) return required ? MESSAGES.required : null;
  return PHONE_PATTERN.test(phone) ? null : MESSAGES.phone;
}

// ---- Date of birth -------------------------------------------------------------------------

/** Formats typed digits as MM/DD/YYYY (the ##/##/#### mask). */
export function maskDate(input: string): string {
  const digits = input.replace(/\D/g, '').slice(0, 8);
  if (digits.length <= 2) return digits;
  if (digits.length <= 4) return `${digits.slice(0, 2)}/${digits.slice(2)}`;
  return `${digits.slice(0, 2)}/${digits.slice(2, 4)}/${digits.slice(4)}`;
}

/**
 * Converts MM/DD/YYYY to YYYY-MM-DD, as the field does on blur. Null when the text is not a
 * real date with a four-digit year.
 */
export function usDateToIso(value: string): string | null {
  const match = /^(\d{1,2})\/(\d{1,2})\/(\d+)$/.exec(value.trim());
  if (!match) return null;
  const [, month, day, year] = match;
  if (year!.length !== 4) return null;
  const iso = `${year}-${month!.padStart(2, '0')}-${day!.padStart(2, '0')}`;
  const date = new Date(`${iso}T00:00:00Z`);
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== iso) return null;
  return iso;
}

/** YYYY-MM-DD (or a full timestamp) shown as MM/DD/YYYY, in UTC as the spec shows dates. */
export function isoToUsDate(value: string | null | undefined): string {
  if (!value) return '';
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (!match) return value;
  return `${match[2]}/${match[3]}/${match[1]}`;
}

/** The date field's message: required, or 'Invalid date format' for anything but a real MM/DD/YYYY date. */
export function dateError(value: string, { required = true }: { required?: boolean } = {}): string | null {
  if (!value.trim()) return required ? MESSAGES.required : null;
  return usDateToIso(value) ? null : MESSAGES.invalidDate;
}

// ---- Ids -----------------------------------------------------------------------------------

const MEMBER_ID_PATTERN = /^[A-Za-z0-9-]+$/;
/** The account forms take numeric ids; the roster's ids are written XXX-XXXXXX, so a hyphen is kept. */
const NUMERIC_ID_PATTERN = /^[0-9-]+$/;

/** Member IDs: letters, digits and hyphens only. */
export function memberIdError(value: string, { required = true, numeric = false }: { required?: boolean; numeric?: boolean } = {}): string | null {
  const id = value.trim();
  if (!id) return required ? MESSAGES.required : null;
  return (numeric ? NUMERIC_ID_PATTERN : MEMBER_ID_PATTERN).test(id) ? null : MESSAGES.specialCharacters;
}

/** The ID rule of the add-dependent form: nine digits, written XXX-XXXXXX (a hyphen may be left out). */
const ID_RULE_PATTERN = /^\d{3}-?\d{6}$/;

export function idRuleError(value: string): string | null {
  const id = value.trim();
  if (!id) return MESSAGES.required;
  return ID_RULE_PATTERN.test(id) ? null : MESSAGES.idFormat;
}

/** Nine digits as the roster writes them, XXX-XXXXXX; anything else unchanged (its message shows). */
export function formatIdRule(value: string): string {
  const id = value.trim();
  return /^\d{9}$/.test(id) ? `${id.slice(0, 3)}-${id.slice(3)}` : id;
}

// ---- Passwords -----------------------------------------------------------------------------

/** The checklist's length: at least 8 characters. */
export const PASSWORD_MIN_LENGTH = 8;

export interface PasswordRequirement {
  key: 'length' | 'upper' | 'lower' | 'special';
  label: string;
  met: (password: string) => boolean;
}

/** The live requirement checklist of the set/reset password screens (2.9, 2.11). */
export const PASSWORD_REQUIREMENTS: PasswordRequirement[] = [
  { key: 'length', label: 'At least 8 characters', met: (p) => p.length >= PASSWORD_MIN_LENGTH },
  { key: 'upper', label: 'An upper case letter', met: (p) => /[A-Z]/.test(p) },
  { key: 'lower', label: 'A lowercase letter', met: (p) => /[a-z]/.test(p) },
  { key: 'special', label: 'A special character', met: (p) => /[^A-Za-z0-9]/.test(p) },
];

/** The longest password the server takes (docs/accounts-contract.md). */
export const PASSWORD_MAX_LENGTH = 128;

/**
 * The password rule of sign-up, reset and account change: required, an uppercase and a
 * lowercase letter and a non-alphanumeric character, and at least 8 characters. The spec keeps
 * two readings of the length ("over 8" in the rule, "at least 8" in the checklist); the server
 * contract chose the checklist's, so what the checklist ticks is what the server accepts.
 */
export function passwordError(password: string): string | null {
  if (!password) return MESSAGES.passwordRequired;
  const strong =
    PASSWORD_REQUIREMENTS.every((requirement) => requirement.met(password)) && password.length <= PASSWORD_MAX_LENGTH;
  return strong ? null : MESSAGES.passwordRules;
}

/** The confirmation must equal the password. */
export function passwordMatchError(password: string, confirmation: string): string | null {
  if (!confirmation) return MESSAGES.passwordRequired;
  return password === confirmation ? null : MESSAGES.passwordMatch;
}

/** The auth change-password form (2.13): 8 or more characters, lower, upper, digit and one of ! @ # $ % ^ & *. */
export function authPasswordError(password: string): string | null {
  if (!password) return MESSAGES.required;
  const strong = /[a-z]/.test(password) && /[A-Z]/.test(password) && /\d/.test(password) && /[!@#$%^&*]/.test(password) && password.length >= PASSWORD_MIN_LENGTH;
  return strong ? null : MESSAGES.passwordAuthRules;
}

/** Trims every string value of a form before it is sent. */
export function trimValues<T extends Record<string, unknown>>(values: T): T {
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) result[key] = typeof value === 'string' ? value.trim() : value;
  return result as T;
}
