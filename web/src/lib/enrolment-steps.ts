/**
 * The step headers of enrolment (eligibility, add family, membership card) tick a step only when
 * it is true for the member: these are the facts each step name stands for.
 */
export interface StepFacts {
  /** 'Personalize your search': an employer is chosen. */
  employerChosen: boolean;
  /** 'Create account': the account exists (signed in; its email may still wait for the link). */
  accountCreated: boolean;
  /** 'Select Provider': a clinic is chosen (on the account, or before signing up). */
  providerChosen: boolean;
  /** 'Verify your eligibility': eligibility status active. */
  eligibilityConfirmed: boolean;
  /** 'Add Family Member': someone else is on the account. */
  familyAdded: boolean;
  /** 'Activate membership' and 'Schedule your first visit': the membership is active (the first visit happened). */
  membershipActive: boolean;
}

const STEP_FACT: Record<string, keyof StepFacts> = {
  'Personalize your search': 'employerChosen',
  'Create account': 'accountCreated',
  'Select Provider': 'providerChosen',
  'Verify your eligibility': 'eligibilityConfirmed',
  'Add Family Member': 'familyAdded',
  'Activate membership': 'membershipActive',
  'Schedule your first visit': 'membershipActive',
};

/** Whether each step is done; a step whose fact is not given (or unknown) is not. */
export function stepsDone(steps: readonly string[], facts: Partial<StepFacts>): boolean[] {
  return steps.map((step) => {
    const fact = STEP_FACT[step];
    return fact !== undefined && facts[fact] === true;
  });
}

/** The step to do next: the first one not done, or the length when all are. */
export function firstOpenStep(done: readonly boolean[]): number {
  const open = done.indexOf(false);
  return open === -1 ? done.length : open;
}
