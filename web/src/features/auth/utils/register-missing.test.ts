import { registerMissing } from './register-missing';

describe('registerMissing', () => {
  it('names every missing part in the order of the form', () => {
    expect(registerMissing({ employer: false, email: false, terms: false })).toBe('To continue, choose your employer, enter a valid company email and agree to the terms.');
    expect(registerMissing({ employer: true, email: false, terms: true })).toBe('To continue, enter a valid company email.');
    expect(registerMissing({ employer: false, email: true, terms: false })).toBe('To continue, choose your employer and agree to the terms.');
  });

  it('says nothing once the form can be sent', () => {
    expect(registerMissing({ employer: true, email: true, terms: true })).toBeNull();
  });
});
