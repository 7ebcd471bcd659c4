import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api-client';
import type { MemberState } from '@/lib/member-state';
import {
  activeMembershipText,
  afterEnrolment,
  dependentErrorText,
  enrolledClinicName,
  enrolledDialog,
  ENROLMENT_TEXTS,
  isRetryableFailure,
  membershipStatusText,
  pendingMembershipText,
  refusalDialog,
  splitSentence,
  startSelection,
  wasProviderChange,
  type ClinicTarget,
} from './select-provider';

const clinic: ClinicTarget = { entity: 'location', providerId: 1, locationId: 3, name: 'Front Range Direct Primary Care', locationName: 'Highlands' };

function self(overrides: Partial<MemberState> = {}): MemberState {
  return {
    dependentId: null,
    name: 'Jane Doe',
    firstName: 'Jane',
    nextStep: 'selectDPC',
    setup: 'complete',
    subscriptionStatus: null,
    locationId: null,
    clinicName: null,
    clinicLocationName: null,
    hasFamily: false,
    ...overrides,
  };
}

const dependent = (overrides: Partial<MemberState> = {}) => self({ dependentId: 22, name: 'John Doe', firstName: 'John', setup: null, ...overrides });

function refusal(status: number, code: string, message: string, extra: Record<string, unknown> = {}) {
  return new ApiError(status, message, code, { message, code, ...extra });
}

describe('startSelection', () => {
  const signedIn = { target: clinic, employerChosen: true, signedIn: true };

  it('asks for the employer before anything else', () => {
    expect(startSelection({ ...signedIn, employerChosen: false, signedIn: false, member: null })).toEqual({ kind: 'employer-needed' });
    expect(startSelection({ ...signedIn, employerChosen: false, member: self({ subscriptionStatus: 'active' }) })).toEqual({ kind: 'employer-needed' });
  });

  it('refuses a card that is not a location', () => {
    expect(startSelection({ ...signedIn, target: { ...clinic, entity: 'provider' }, member: self() })).toEqual({ kind: 'non-provider' });
    expect(startSelection({ ...signedIn, target: { ...clinic, locationId: null }, member: self() })).toEqual({ kind: 'non-provider' });
    expect(startSelection({ ...signedIn, target: { ...clinic, entity: 'vendor' }, signedIn: false, member: null })).toEqual({ kind: 'non-provider' });
  });

  it('sends a visitor to register', () => {
    expect(startSelection({ ...signedIn, signedIn: false, member: null })).toEqual({ kind: 'register' });
  });

  it('waits while the member is loading', () => {
    expect(startSelection({ ...signedIn, member: null })).toEqual({ kind: 'wait' });
  });

  it('shows the cannot-enrol dialog for an active subscription', () => {
    expect(startSelection({ ...signedIn, member: self({ subscriptionStatus: 'active', nextStep: 'complete', clinicName: 'LoDo Clinic' }) })).toEqual({ kind: 'cannot-enrol', title: 'You have an active membership with LoDo Clinic' });
    expect(startSelection({ ...signedIn, member: dependent({ subscriptionStatus: 'active', nextStep: 'complete' }) })).toEqual({ kind: 'cannot-enrol', title: 'You have an active membership with your provider' });
  });

  it('confirms a change of a pending provider first', () => {
    expect(startSelection({ ...signedIn, member: self({ subscriptionStatus: 'pending', nextStep: 'complete', clinicName: 'LoDo Clinic' }) })).toEqual({ kind: 'confirm-change', currentClinic: 'LoDo Clinic' });
    // Two locations of one organisation are told apart by their location names.
    expect(startSelection({ ...signedIn, member: self({ subscriptionStatus: 'pending', nextStep: 'complete', clinicName: 'Front Range Direct Primary Care', clinicLocationName: 'LoDo' }) })).toEqual({
      kind: 'confirm-change',
      currentClinic: 'Front Range Direct Primary Care — LoDo',
    });
    expect(startSelection({ ...signedIn, member: self({ subscriptionStatus: 'pending', nextStep: 'confirmPlan' }) })).toEqual({ kind: 'confirm-change', currentClinic: 'your provider' });
    // The same rule on a family member's own state.
    expect(startSelection({ ...signedIn, member: dependent({ subscriptionStatus: 'pending', nextStep: 'complete', clinicName: 'Chelsea' }) })).toEqual({ kind: 'confirm-change', currentClinic: 'Chelsea' });
  });

  it('Setup complete (subscriber): an enrolled subscriber with no pending membership to change gets the cannot-enrol dialog', () => {
    // The variant 'You have a {status} membership with {location}'.
    expect(startSelection({ ...signedIn, member: self({ subscriptionStatus: 'inactive', nextStep: 'complete', clinicName: 'LoDo Clinic' }) })).toEqual({ kind: 'cannot-enrol', title: 'You have an inactive membership with LoDo Clinic' });
    // No membership status at all: the server's own words for the case.
    expect(startSelection({ ...signedIn, member: self({ subscriptionStatus: null, nextStep: 'complete' }) })).toEqual({ kind: 'cannot-enrol', title: "You're already enrolled with a provider" });
    // Only once setup is complete, and only for the subscriber.
    expect(startSelection({ ...signedIn, member: self({ subscriptionStatus: 'inactive', nextStep: 'complete', setup: 'incomplete' }) })).toEqual({ kind: 'set-provider' });
    expect(startSelection({ ...signedIn, member: dependent({ subscriptionStatus: 'inactive', nextStep: 'complete', setup: 'complete' }) })).toEqual({ kind: 'set-provider' });
  });

  it('sets the provider otherwise', () => {
    expect(startSelection({ ...signedIn, member: self() })).toEqual({ kind: 'set-provider' });
    expect(startSelection({ ...signedIn, member: self({ subscriptionStatus: 'pending', nextStep: 'selectDPC' }) })).toEqual({ kind: 'set-provider' });
    expect(startSelection({ ...signedIn, member: self({ subscriptionStatus: null, nextStep: 'confirmPlan', setup: 'incomplete' }) })).toEqual({ kind: 'set-provider' });
    expect(startSelection({ ...signedIn, member: dependent() })).toEqual({ kind: 'set-provider' });
  });
});

describe('afterEnrolment', () => {
  it('setup incomplete and nextStep confirmPlan: /confirm-plan-information, reloaded', () => {
    expect(afterEnrolment({ nextStep: 'confirmPlan', setup: 'incomplete' }, self({ setup: 'incomplete' }))).toEqual({ kind: 'confirm-plan', reload: true });
    // Without them in the answer, the member's own are used.
    expect(afterEnrolment({}, self({ nextStep: 'confirmPlan', setup: 'incomplete' }))).toEqual({ kind: 'confirm-plan', reload: true });
  });

  it('nextStep confirmPlan or setup incomplete alone: /confirm-plan-information without the reload', () => {
    expect(afterEnrolment({ nextStep: 'confirmPlan', setup: 'complete' }, self())).toEqual({ kind: 'confirm-plan', reload: false });
    expect(afterEnrolment({ nextStep: 'complete', setup: 'incomplete' }, self())).toEqual({ kind: 'confirm-plan', reload: false });
    expect(afterEnrolment({}, self({ nextStep: 'confirmPlan' }))).toEqual({ kind: 'confirm-plan', reload: false });
  });

  it('goes on to the post-enrolment step once enrolled', () => {
    expect(afterEnrolment({ nextStep: 'complete', setup: 'complete' }, self())).toEqual({ kind: 'post-enrolment' });
    expect(afterEnrolment({ nextStep: 'complete' }, self({ setup: 'complete' }))).toEqual({ kind: 'post-enrolment' });
  });

  it('never sends the subscriber to confirm a family member there', () => {
    expect(afterEnrolment({ nextStep: 'confirmPlan', setup: 'incomplete' }, dependent())).toEqual({ kind: 'post-enrolment' });
  });
});

describe('enrolledDialog', () => {
  it('offers Connect me now when the clinic has a post-enrolment redirect', () => {
    expect(enrolledDialog({ postMemberEnrollment: { redirect: ' https://portal.example/join ' } }, { member: self(), clinic: 'Highlands', changed: false })).toEqual({
      kind: 'connect',
      redirect: 'https://portal.example/join',
      clinic: 'Highlands',
      changed: false,
      dependent: false,
      addFamily: false,
    });
    expect(enrolledDialog({ postMemberEnrollment: { redirect: 'https://portal.example' } }, { member: dependent(), clinic: 'Highlands', changed: true })).toMatchObject({ kind: 'connect', dependent: true, changed: true, addFamily: false });
  });

  it('after Connect me now, asks a subscriber with family to add them', () => {
    const redirect = { postMemberEnrollment: { redirect: 'https://portal.example' } };
    expect(enrolledDialog(redirect, { member: self({ hasFamily: true }), clinic: 'Highlands', changed: false })).toMatchObject({ kind: 'connect', addFamily: true });
    // Without a redirect the family question is not asked: the all-set dialog and the membership card.
    expect(enrolledDialog({ postMemberEnrollment: null }, { member: self({ hasFamily: true }), clinic: 'LoDo', changed: false }).kind).toBe('subscriber-all-set');
  });

  it('shows the subscriber-all-set dialog without one', () => {
    expect(enrolledDialog({ postMemberEnrollment: null }, { member: self(), clinic: 'LoDo', changed: false })).toEqual({ kind: 'subscriber-all-set', clinic: 'LoDo', changed: false });
    expect(enrolledDialog({ postMemberEnrollment: { redirect: '' } }, { member: self(), clinic: 'LoDo', changed: true })).toEqual({ kind: 'subscriber-all-set', clinic: 'LoDo', changed: true });
    expect(enrolledDialog(null, { member: self(), clinic: 'LoDo', changed: false }).kind).toBe('subscriber-all-set');
  });

  it('shows the dependent-all-set dialog for a family member', () => {
    expect(enrolledDialog({}, { member: dependent(), clinic: 'LoDo', changed: false })).toEqual({ kind: 'dependent-all-set', clinic: 'LoDo', changed: false, name: 'John' });
  });

  it('names the stored location and tells a change from a first enrolment', () => {
    expect(enrolledClinicName({ location: { id: 3, name: 'Front Range DPC' } }, clinic)).toBe('Front Range DPC');
    expect(enrolledClinicName({}, clinic)).toBe('Front Range Direct Primary Care');
    expect(wasProviderChange({ changed: true }, false)).toBe(true);
    expect(wasProviderChange({ changed: false }, true)).toBe(false);
    expect(wasProviderChange({}, true)).toBe(true);
  });
});

describe('refusalDialog', () => {
  it('asks to confirm when the server saw a pending membership', () => {
    const error = refusal(409, 'change_needs_confirmation', 'You have a pending membership with LoDo', { clinic: 'LoDo' });
    expect(refusalDialog(error, self())).toEqual({ dialog: { kind: 'confirm-change', currentClinic: 'LoDo' }, clearDependent: false });
    expect(refusalDialog(error, dependent())).toEqual({ dialog: { kind: 'confirm-change', currentClinic: 'LoDo' }, clearDependent: false });
  });

  it('shows the inactive employer dialog', () => {
    expect(refusalDialog(refusal(403, 'employer_inactive', ENROLMENT_TEXTS.employerInactive), self())).toEqual({
      dialog: { kind: 'employer-inactive', message: 'Oops, your employer does not offer this benefit yet' },
      clearDependent: false,
    });
  });

  it('shows the cannot-enrol dialog for an active membership or an enrolled member', () => {
    const active = refusal(409, 'active_membership', activeMembershipText('LoDo'), { clinic: 'LoDo', supportEmail: 'help@nearcare.example' });
    expect(refusalDialog(active, self())).toEqual({ dialog: { kind: 'cannot-enrol', title: 'You have an active membership with LoDo', supportEmail: 'help@nearcare.example' }, clearDependent: false });
    expect(refusalDialog(refusal(409, 'already_enrolled', ENROLMENT_TEXTS.alreadyEnrolled), self())).toEqual({
      dialog: { kind: 'cannot-enrol', title: "You're already enrolled with a provider", supportEmail: null },
      clearDependent: false,
    });
  });

  it('refuses a non-provider card', () => {
    expect(refusalDialog(refusal(400, 'not_a_location', ENROLMENT_TEXTS.nonProvider), self())).toEqual({
      dialog: { kind: 'non-provider', message: 'Oops. Seems like you selected a non-provider card.' },
      clearDependent: false,
    });
  });

  it('adds Please select another provider to a clinic that is not accepting', () => {
    expect(refusalDialog(refusal(409, 'not_accepting', ENROLMENT_TEXTS.notAccepting), self())).toEqual({
      dialog: { kind: 'enrol-error', message: 'This location is not accepting new patients at the moment', hint: 'Please select another provider' },
      clearDependent: false,
    });
  });

  it('shows both pediatric refusals as a title and the advice, and clears a family member', () => {
    const age = refusal(409, 'pediatric_age', 'This clinic does not accept pediatrics patients of this age. Please find another DPC clinic for this dependent');
    expect(refusalDialog(age, dependent())).toEqual({
      dialog: { kind: 'pediatric', title: 'This clinic does not accept pediatrics patients of this age', message: 'Please find another DPC clinic for this dependent' },
      clearDependent: true,
    });
    const none = refusal(409, 'pediatric_not_offered', 'This clinic does not offer pediatric services. Please find another DPC clinic for this dependent');
    expect(refusalDialog(none, self())).toEqual({
      dialog: { kind: 'pediatric', title: 'This clinic does not offer pediatric services', message: 'Please find another DPC clinic for this dependent' },
      clearDependent: false,
    });
  });

  it("puts a family member's failure in the dependent error dialog and clears them", () => {
    const result = refusalDialog(refusal(409, 'not_accepting', ENROLMENT_TEXTS.notAccepting), dependent());
    expect(result).toEqual({
      dialog: { kind: 'dependent-error', title: "Something went wrong while selecting for John's provider.", message: 'This location is not accepting new patients at the moment' },
      clearDependent: true,
    });
    expect(dependentErrorText('John')).toBe("Something went wrong while selecting for John's provider.");
  });

  it('shows the server text, or the general text, for anything else', () => {
    expect(refusalDialog(refusal(404, 'not_found', 'Provider not found'), self()).dialog).toEqual({ kind: 'enrol-error', message: 'Provider not found', hint: null });
    expect(refusalDialog(new TypeError('Failed to fetch'), self()).dialog).toEqual({ kind: 'enrol-error', message: 'Oops. Something went wrong', hint: null });
  });
});

describe('isRetryableFailure', () => {
  it('retries server failures and calls that got no answer, not refusals', () => {
    expect(isRetryableFailure(refusal(500, 'internal', 'Internal error'))).toBe(true);
    expect(isRetryableFailure(refusal(503, 'http_503', 'Service unavailable'))).toBe(true);
    expect(isRetryableFailure(new TypeError('Failed to fetch'))).toBe(true);
    expect(isRetryableFailure(refusal(409, 'not_accepting', ENROLMENT_TEXTS.notAccepting))).toBe(false);
    expect(isRetryableFailure(refusal(404, 'not_found', 'Provider not found'))).toBe(false);
    expect(isRetryableFailure(new DOMException('The operation was aborted.', 'AbortError'))).toBe(false);
  });
});

describe('texts', () => {
  it('are the spec texts', () => {
    expect(ENROLMENT_TEXTS.retry).toBe('Oops, something went wrong. Please try again.');
    expect(membershipStatusText('pending', 'LoDo')).toBe('You have a pending membership with LoDo');
    expect(membershipStatusText('inactive', 'LoDo')).toBe('You have an inactive membership with LoDo');
    expect(membershipStatusText('active', 'LoDo')).toBe('You have an active membership with LoDo');
    expect(activeMembershipText('LoDo')).toBe('You have an active membership with LoDo. Please contact us through our support email for further assistance.');
    expect(pendingMembershipText('Chelsea')).toBe('You now have a pending membership with Chelsea');
    expect(splitSentence('One. Two. Three')).toEqual({ title: 'One', rest: 'Two. Three' });
    expect(splitSentence('Only one')).toEqual({ title: 'Only one', rest: '' });
  });
});
