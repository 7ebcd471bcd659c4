import { describe, expect, it } from 'vitest';
import {
  authPasswordError,
  dateError,
  displayPhone,
  emailError,
  formatPhone,
  isoToUsDate,
  maskDate,
  memberIdError,
  idRuleError,
  formatIdRule,
  MESSAGES,
  normaliseEmail,
  PASSWORD_REQUIREMENTS,
  passwordError,
  passwordMatchError,
  phoneError,
  usDateToIso,
} from './validation';

describe('email', () => {
  it('is trimmed and lower-cased when it leaves the field', () => {
    expect(normaliseEmail('  Jane.Doe@ACME.example ')).toBe('jane.doe@acme.example');
  });

  it('uses the form’s own wording for required and invalid', () => {
    expect(emailError('')).toBe('E-mail is required');
    expect(emailError('jane@acme')).toBe('E-mail must be valid');
    expect(emailError('jane doe@acme.example', { invalidMessage: MESSAGES.emailInvalidAlt })).toBe('Please enter a valid e-mail');
    expect(emailError('', { requiredMessage: MESSAGES.required })).toBe('This field is required');
    expect(emailError('jane@acme.example')).toBeNull();
  });
});

describe('phone', () => {
  it('is formatted 3-3-4 with spaces', () => {
    expect(formatPhone('303')).toBe('303');
    expect(formatPhone('3035')).toBe('303 5');
    expect(formatPhone('(303) 555-0100')).toBe('303 555 0100');
  });

  it('keeps a typed +1 as the country code and never drops, adds or moves a digit', () => {
    // The old mask kept the first ten digits of '+1 303 555 0123': '130 355 5012'.
    expect(formatPhone('+1 303 555 0123')).toBe('+1 303 555 0123');
    expect(formatPhone('1 303 555 0123')).toBe('+1 303 555 0123');
    expect(formatPhone('+1 (303) 555-0123')).toBe('+1 303 555 0123');
    expect(formatPhone('+')).toBe('+');
    expect(formatPhone('+1')).toBe('+1');
    expect(formatPhone('+13')).toBe('+1 3');
    // Digits past the tenth stay, for the message to point at.
    expect(formatPhone('30355501009999')).toBe('303 555 01009999');
    for (const typed of ['+1 303 555 0123', '3035550123', '13035550123', '303555012345']) {
      expect(formatPhone(typed).replace(/\D/g, '')).toBe(typed.replace(/\D/g, ''));
    }
  });

  it('shows a stored E.164 number as the form writes it', () => {
    expect(displayPhone('+13035550123')).toBe('303 555 0123');
    expect(displayPhone('303 555 0123')).toBe('303 555 0123');
    expect(displayPhone(null)).toBe('');
  });

  it('accepts the US pattern with an optional country code, and only real North American numbers', () => {
    expect(phoneError('303 555 0100')).toBeNull();
    expect(phoneError('+1 303.555.0100')).toBeNull();
    expect(phoneError('+1 303 555 0123')).toBeNull();
    expect(phoneError('303-555-0100')).toBeNull();
    expect(phoneError('303 555')).toBe('Phone number must be in a valid format (XXX XXX XXXX)');
    expect(phoneError('130 355 5012')).toBe('Phone number must be in a valid format (XXX XXX XXXX)');
    expect(phoneError('303 155 0123')).toBe('Phone number must be in a valid format (XXX XXX XXXX)');
    expect(phoneError('303 555 01009999')).toBe('Phone number must be in a valid format (XXX XXX XXXX)');
    expect(phoneError('')).toBe('This field is required');
  });
});

describe('date of birth', () => {
  it('masks typed digits as MM/DD/YYYY', () => {
    expect(maskDate('04')).toBe('04');
    expect(maskDate('0412')).toBe('04/12');
    expect(maskDate('04121985')).toBe('04/12/1985');
    expect(maskDate('04/12/1985999')).toBe('04/12/1985');
  });

  it('converts MM/DD/YYYY to YYYY-MM-DD, and back for display', () => {
    expect(usDateToIso('04/12/1985')).toBe('1985-04-12');
    expect(usDateToIso('02/30/1985')).toBeNull();
    expect(isoToUsDate('1985-04-12')).toBe('04/12/1985');
    expect(isoToUsDate('2027-11-21T00:00:00Z')).toBe('11/21/2027');
  });

  it('says Invalid date format unless the year has four digits', () => {
    expect(dateError('04/12/85')).toBe('Invalid date format');
    expect(dateError('04/12/198')).toBe('Invalid date format');
    expect(dateError('04/12/1985')).toBeNull();
    expect(dateError('')).toBe('This field is required');
  });
});

describe('member ids', () => {
  it('allow letters, digits and hyphens only', () => {
    expect(memberIdError('123-456789')).toBeNull();
    expect(memberIdError('AB12-3')).toBeNull();
    expect(memberIdError('123 456')).toBe('Special characters not allowed');
    expect(memberIdError('123#456')).toBe('Special characters not allowed');
  });

  it('are numeric in the account forms', () => {
    expect(memberIdError('123-456789', { numeric: true })).toBeNull();
    expect(memberIdError('AB123', { numeric: true })).toBe('Special characters not allowed');
  });

  it('follow the ID rule in the add-dependent form: nine digits, XXX-XXXXXX', () => {
    const message = 'ID should contain 9 digits, Please enter your ID in XXX-XXXXXX format';
    expect(idRuleError('123-456789')).toBeNull();
    expect(idRuleError('123456789')).toBeNull();
    expect(idRuleError('ABC-456789')).toBe(message);
    expect(idRuleError('123-45678')).toBe(message);
    expect(idRuleError('')).toBe('This field is required');
    expect(formatIdRule(' 123456789 ')).toBe('123-456789');
    expect(formatIdRule('123-456789')).toBe('123-456789');
  });
});

describe('passwords', () => {
  it('tick each checklist requirement as it is met', () => {
    const met = (password: string) => PASSWORD_REQUIREMENTS.filter((rule) => rule.met(password)).map((rule) => rule.label);
    expect(PASSWORD_REQUIREMENTS.map((rule) => rule.label)).toEqual(['At least 8 characters', 'An upper case letter', 'A lowercase letter', 'A special character']);
    expect(met('abc')).toEqual(['A lowercase letter']);
    expect(met('Abcdefg!')).toEqual(['At least 8 characters', 'An upper case letter', 'A lowercase letter', 'A special character']);
  });

  it('refuse weak passwords with the security message; 8 characters are enough, as the checklist and the server say', () => {
    expect(passwordError('')).toBe('Password is required');
    expect(passwordError('abcdefghij')).toBe('Password does not meet the security requirements');
    expect(passwordError('Abcdef!')).toBe('Password does not meet the security requirements');
    expect(passwordError('Abcdefg!')).toBeNull();
    expect(passwordError(`Aa!${'x'.repeat(126)}`)).toBe('Password does not meet the security requirements');
  });

  it('need the confirmation to match', () => {
    expect(passwordMatchError('Abcdefgh!', 'Abcdefgh?')).toBe('Password must match');
    expect(passwordMatchError('Abcdefgh!', 'Abcdefgh!')).toBeNull();
  });

  it('follow the auth change form’s own rule', () => {
    expect(authPasswordError('')).toBe('This field is required');
    expect(authPasswordError('Abcdefg!')).toBe('Min. 8 characters with at least one capital letter, a number and a special character.');
    expect(authPasswordError('Abcdef1!')).toBeNull();
  });
});
