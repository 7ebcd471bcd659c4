import { describe, expect, it } from 'vitest';
import { directionsUrl, formatCount, formatDate, formatMiles, formatMoney, genderLabel, initials, isValidEmail, truncate, withProtocol } from './format';
import emailCases from '../../../crates/domain/src/email_cases.json';

describe('format', () => {
  it('truncates only text longer than the limit', () => {
    expect(truncate('12345678901234567890', 20)).toBe('12345678901234567890');
    expect(truncate('123456789012345678901', 20)).toBe('12345678901234567890...');
  });

  it('groups the thousands of a count', () => {
    expect(formatCount(0)).toBe('0');
    expect(formatCount(999)).toBe('999');
    expect(formatCount(1050)).toBe('1,050');
    expect(formatCount(94086)).toBe('94,086');
    expect(formatCount(1000000)).toBe('1,000,000');
  });

  it('shows distances in miles with two decimals', () => {
    expect(formatMiles(1.23456)).toBe('1.23 miles');
    expect(formatMiles(0)).toBe('0.00 miles');
    expect(formatMiles(12.5)).toBe('12.50 miles');
    expect(formatMiles(null)).toBeNull();
  });

  it('adds https:// unless the link contains http', () => {
    expect(withProtocol('clinic.example')).toBe('https://clinic.example');
    expect(withProtocol('http://clinic.example')).toBe('http://clinic.example');
    expect(withProtocol('https://clinic.example')).toBe('https://clinic.example');
  });

  it('reads F as Female and anything else as Male', () => {
    expect(genderLabel('F')).toBe('Female');
    expect(genderLabel('M')).toBe('Male');
    expect(genderLabel('x')).toBe('Male');
    expect(genderLabel(null)).toBeNull();
  });

  it('makes initials from names', () => {
    expect(initials('Mile High Direct Care')).toBe('MC');
    expect(initials('Acme')).toBe('AC');
  });

  it('validates emails without spaces', () => {
    expect(isValidEmail('a@b.co')).toBe(true);
    expect(isValidEmail('a b@b.co')).toBe(false);
    expect(isValidEmail('a@b')).toBe(false);
  });

  it('builds a directions link from the user position when known', () => {
    expect(directionsUrl({ lat: 1, lng: 2 }, { lat: 3, lng: 4 })).toBe('https://www.google.com/maps/dir/?api=1&destination=1%2C2&origin=3%2C4');
    expect(directionsUrl({ lat: 1, lng: 2 })).toBe('https://www.google.com/maps/dir/?api=1&destination=1%2C2');
  });

  it('shows the server\'s decimal strings as dollars, exactly, without float arithmetic', () => {
    expect(formatMoney('75.00')).toBe('$75.00');
    expect(formatMoney('5')).toBe('$5.00');
    expect(formatMoney('2.5')).toBe('$2.50');
    expect(formatMoney('1234567.89')).toBe('$1,234,567.89');
    expect(formatMoney('-5.00')).toBe('-$5.00');
    expect(formatMoney('-0.00')).toBe('$0.00');
    expect(formatMoney('0.10')).toBe('$0.10');
    // A float would print 0.30000000000000004 for 0.1 + 0.2; the string is never converted.
    expect(formatMoney('90071992547409.93')).toBe('$90,071,992,547,409.93');
    expect(formatMoney(null)).toBe('—');
    expect(formatMoney('abc')).toBe('—');
  });

  it('shows dates as MM/DD/YYYY in UTC', () => {
    expect(formatDate('2026-11-24T23:30:00Z')).toBe('11/24/2026');
    expect(formatDate(null)).toBe('—');
  });
});

describe('isValidEmail', () => {
  // The server's own cases: one rule on both sides.
  it.each(emailCases.valid)('takes %s', (email) => expect(isValidEmail(email)).toBe(true));
  it.each(emailCases.invalid)('refuses %s', (email) => expect(isValidEmail(email)).toBe(false));
});
