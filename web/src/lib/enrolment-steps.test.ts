import { firstOpenStep, stepsDone } from './enrolment-steps';

describe('enrolment steps', () => {
  const steps = ['Create account', 'Select Provider', 'Verify your eligibility', 'Activate membership'];

  it('ticks only the steps whose facts are true, in any order', () => {
    expect(stepsDone(steps, { accountCreated: true })).toEqual([true, false, false, false]);
    expect(stepsDone(steps, { accountCreated: true, eligibilityConfirmed: true })).toEqual([true, false, true, false]);
    expect(stepsDone(['Personalize your search', 'Select Provider', 'Verify your eligibility', 'Schedule your first visit'], { employerChosen: true, membershipActive: true })).toEqual([
      true,
      false,
      false,
      true,
    ]);
  });

  it('names the first step not done as the next one, the length when all are done', () => {
    expect(firstOpenStep([true, false, true, false])).toBe(1);
    expect(firstOpenStep([true, true])).toBe(2);
  });
});
