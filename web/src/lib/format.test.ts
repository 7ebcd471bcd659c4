import { describe, expect, it } from 'vitest';
import { directionsUrl, formatMiles, genderLabel, initials, isValidEmail, truncate, withProtocol } from './format';

describe('format', () => {
  it('truncates only text longer than the limit', () => {
    expect(truncate('12345678901234567890', 20)).toBe('12345678901234567890');
    expect(truncate('123456789012345678901', 20)).toBe('12345678901234567890...');
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
});
