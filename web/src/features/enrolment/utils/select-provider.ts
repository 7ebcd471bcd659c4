/**
 * Selecting a clinic (marketplace spec, section 4 "Selecting a clinic" and "Which member is acted
 * on"; docs/enrolment-contract.md): what happens when a member presses Select on a result card or
 * a clinic profile, after the set-provider call, and when the server refuses. Pure functions over
 * the member acted on, so every branch is tested without a browser.
 */
import { ApiError } from '@/lib/api-client';
import type { MemberState } from '@/lib/member-state';
import type { PostEnrollment } from '@/api/enrolment/get-post-enrollment';
import type { SetProviderAnswer } from '@/api/enrolment/set-provider';

/** The spec's texts (sections 4 and 8); the server sends the same ones as `message`. */
export const ENROLMENT_TEXTS = {
  nonProvider: 'Oops. Seems like you selected a non-provider card.',
  employerInactive: 'Oops, your employer does not offer this benefit yet',
  notAccepting: 'This location is not accepting new patients at the moment',
  alreadyEnrolled: "You're already enrolled with a provider",
  selectAnother: 'Please select another provider',
  pediatricAge: 'This clinic does not accept pediatrics patients of this age',
  pediatricNotOffered: 'This clinic does not offer pediatric services',
  findAnother: 'Please find another DPC clinic for this dependent',
  providerNotFound: 'Provider not found',
  general: 'Oops. Something went wrong',
  /** The error modal with Retry (a server failure or no answer at all). */
  retry: 'Oops, something went wrong. Please try again.',
  contactSupport: 'Please contact us through our support email for further assistance.',
} as const;

/** 'You have an active membership with {clinic}. Please contact us ...' (the cannot-enrol dialog). */
export function activeMembershipText(clinic: string): string {
  return `${membershipStatusText('active', clinic)}. ${ENROLMENT_TEXTS.contactSupport}`;
}

/**
 * 'You have a {status} membership with {location}': the cannot-enrol title for any membership
 * status ('an' before a vowel, so the active one reads as the spec's 'You have an active
 * membership with {clinic}').
 */
export function membershipStatusText(status: string, location: string): string {
  return `You have ${/^[aeiou]/i.test(status) ? 'an' : 'a'} ${status} membership with ${location}`;
}

/** What a member is told after a provider change. */
export function pendingMembershipText(clinic: string): string {
  return `You now have a pending membership with ${clinic}`;
}

/** The title of the dependent error dialog. */
export function dependentErrorText(name: string): string {
  return `Something went wrong while selecting for ${name}'s provider.`;
}

/** The clinic the member pressed Select on. */
export interface ClinicTarget {
  /** The card's entity: only 'location' cards can be enrolled with. */
  entity: string;
  /** The organisation. */
  providerId: number;
  locationId: number | null;
  /** The name shown in dialogs. */
  name: string;
  locationName?: string;
}

/** A clinic named with its location ('Front Range Direct Primary Care — LoDo') when it has one of its own. */
export function clinicWithLocation(name: string, locationName: string | null | undefined): string {
  const place = locationName?.trim();
  return place && place !== name.trim() ? `${name} — ${place}` : name;
}

export type SelectionStart =
  /** No employer yet: the employer prompt first. */
  | { kind: 'employer-needed' }
  | { kind: 'non-provider' }
  /** Signed out: the clinic is stored as the selected provider and the visitor goes to /register. */
  | { kind: 'register' }
  /** Signed in but the member is still loading: nothing happens yet. */
  | { kind: 'wait' }
  /** Contact support instead: an active membership, or a subscriber whose setup and enrolment are complete. */
  | { kind: 'cannot-enrol'; title: string }
  /** A pending membership elsewhere: the change-provider confirmation, then set provider with `change`. */
  | { kind: 'confirm-change'; currentClinic: string }
  | { kind: 'set-provider' };

/**
 * The first step of Select: employer, then the card, then signed in or out, then the acted-on
 * member's own subscription and nextStep (a dependent's rules are the same, on their own state):
 * an active subscription cannot enrol; a pending one past selectDPC is a change, confirmed first;
 * a subscriber whose setup is complete and who is already enrolled (nextStep complete, no
 * pending membership to change) gets the cannot-enrol dialog too ("Setup complete (subscriber):
 * the cannot-enrol dialog"; the server would refuse with `already_enrolled`); anyone else is set.
 */
export function startSelection({
  target,
  employerChosen,
  signedIn,
  member,
}: {
  target: ClinicTarget;
  employerChosen: boolean;
  signedIn: boolean;
  member: MemberState | null;
}): SelectionStart {
  if (!employerChosen) return { kind: 'employer-needed' };
  if (target.entity !== 'location' || target.locationId === null) return { kind: 'non-provider' };
  if (!signedIn) return { kind: 'register' };
  if (!member) return { kind: 'wait' };
  const currentClinic = member.clinicName ?? 'your provider';
  if (member.subscriptionStatus === 'active') return { kind: 'cannot-enrol', title: membershipStatusText('active', currentClinic) };
  // The change is between two locations, often of one organisation: each is named with its location.
  if (member.subscriptionStatus === 'pending' && member.nextStep !== 'selectDPC') return { kind: 'confirm-change', currentClinic: member.clinicName ? clinicWithLocation(member.clinicName, member.clinicLocationName) : currentClinic };
  if (member.dependentId === null && member.setup === 'complete' && member.nextStep === 'complete') {
    const status = member.subscriptionStatus;
    return { kind: 'cannot-enrol', title: status ? membershipStatusText(status, currentClinic) : ENROLMENT_TEXTS.alreadyEnrolled };
  }
  return { kind: 'set-provider' };
}

export type AfterEnrolment =
  /** Eligibility still to confirm: /confirm-plan-information, loaded afresh when setup is incomplete. */
  | { kind: 'confirm-plan'; reload: boolean }
  | { kind: 'post-enrolment' };

/**
 * After a successful set provider (marketplace spec, section 4): "If setup is incomplete after
 * setting the provider, and nextStep is then confirmPlan, go to /confirm-plan-information and
 * reload"; "If nextStep is confirmPlan or setup is incomplete, the user goes to
 * /confirm-plan-information" (without the reload). Everyone else gets the clinic's
 * post-enrolment step. A family member enrolled by the subscriber never goes there: that page
 * confirms the signed-in member. The answer's nextStep and setup win over the member's.
 */
export function afterEnrolment(answer: SetProviderAnswer, member: MemberState): AfterEnrolment {
  if (member.dependentId !== null) return { kind: 'post-enrolment' };
  const nextStep = answer.nextStep ?? member.nextStep;
  const setup = answer.setup ?? member.setup;
  if (setup === 'incomplete' && nextStep === 'confirmPlan') return { kind: 'confirm-plan', reload: true };
  if (nextStep === 'confirmPlan' || setup === 'incomplete') return { kind: 'confirm-plan', reload: false };
  return { kind: 'post-enrolment' };
}

export type EnrolledDialog =
  /**
   * The clinic has its own member portal: the success dialog with Connect me now; then the
   * add-family question for a subscriber with family, else the membership card.
   */
  | { kind: 'connect'; redirect: string; clinic: string; changed: boolean; dependent: boolean; addFamily: boolean }
  /** Then the membership card. */
  | { kind: 'subscriber-all-set'; clinic: string; changed: boolean }
  /** Then the account details. */
  | { kind: 'dependent-all-set'; clinic: string; changed: boolean; name: string };

/** The dialog that closes a successful enrolment, from the post-enrolment answer. */
export function enrolledDialog(post: PostEnrollment | null, { member, clinic, changed }: { member: MemberState; clinic: string; changed: boolean }): EnrolledDialog {
  const redirect = post?.postMemberEnrollment?.redirect?.trim();
  const dependent = member.dependentId !== null;
  if (redirect) return { kind: 'connect', redirect, clinic, changed, dependent, addFamily: !dependent && member.hasFamily };
  if (dependent) return { kind: 'dependent-all-set', clinic, changed, name: member.firstName || member.name };
  return { kind: 'subscriber-all-set', clinic, changed };
}

/** The clinic named in the success dialogs: the location the server stored, else the card's. */
export function enrolledClinicName(answer: SetProviderAnswer, target: ClinicTarget): string {
  return answer.location?.name || target.name;
}

/** Whether the enrolment replaced a pending provider ('You now have a pending membership with ...'). */
export function wasProviderChange(answer: SetProviderAnswer, asked: boolean): boolean {
  return answer.changed ?? asked;
}

/**
 * A failure worth trying again: no answer at all (the network) or a server failure (5xx). These
 * get the error modal with Retry ('Oops, something went wrong. Please try again.').
 */
export function isRetryableFailure(error: unknown): boolean {
  if (error instanceof ApiError) return error.status >= 500;
  return !(error instanceof DOMException && error.name === 'AbortError');
}

export type RefusalDialog =
  | { kind: 'employer-inactive'; message: string }
  /** Active membership, or already enrolled: contact support. */
  | { kind: 'cannot-enrol'; title: string; supportEmail: string | null }
  | { kind: 'non-provider'; message: string }
  /** The server saw a pending membership the page did not know of: ask, then send `change`. */
  | { kind: 'confirm-change'; currentClinic: string }
  | { kind: 'pediatric'; title: string; message: string }
  | { kind: 'enrol-error'; message: string; hint: string | null }
  | { kind: 'dependent-error'; title: string; message: string };

interface ErrorBody {
  clinic?: unknown;
  supportEmail?: unknown;
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() ? value : null;
}

/** Splits "First sentence. The rest" so a pediatric refusal reads as a title and its advice. */
export function splitSentence(message: string): { title: string; rest: string } {
  const at = message.indexOf('. ');
  if (at < 0) return { title: message, rest: '' };
  return { title: message.slice(0, at), rest: message.slice(at + 2) };
}

/**
 * The dialog for a refused set provider, and whether the selected family member is cleared (the
 * spec clears it after any set-provider failure). A family member's failures go to the dependent
 * error dialog ("Something went wrong while selecting for {name}'s provider." and the server's
 * message), except the two pediatric refusals, which have their own dialog.
 */
export function refusalDialog(error: unknown, member: MemberState): { dialog: RefusalDialog; clearDependent: boolean } {
  const api = error instanceof ApiError ? error : null;
  const code = api?.code ?? 'unknown';
  const message = api?.message || ENROLMENT_TEXTS.general;
  const body = (api?.body ?? {}) as ErrorBody;
  const dependent = member.dependentId !== null;

  if (code === 'change_needs_confirmation') {
    return { dialog: { kind: 'confirm-change', currentClinic: text(body.clinic) ?? member.clinicName ?? 'your provider' }, clearDependent: false };
  }
  if (code === 'pediatric_not_offered' || code === 'pediatric_age') {
    const { title, rest } = splitSentence(message);
    return { dialog: { kind: 'pediatric', title, message: rest || ENROLMENT_TEXTS.findAnother }, clearDependent: dependent };
  }
  if (dependent) {
    return { dialog: { kind: 'dependent-error', title: dependentErrorText(member.firstName || member.name), message }, clearDependent: true };
  }
  switch (code) {
    case 'employer_inactive':
      return { dialog: { kind: 'employer-inactive', message }, clearDependent: false };
    case 'active_membership': {
      const clinic = text(body.clinic) ?? member.clinicName ?? 'your provider';
      return { dialog: { kind: 'cannot-enrol', title: membershipStatusText('active', clinic), supportEmail: text(body.supportEmail) }, clearDependent: false };
    }
    case 'already_enrolled':
      return { dialog: { kind: 'cannot-enrol', title: message, supportEmail: text(body.supportEmail) }, clearDependent: false };
    case 'not_a_location':
      return { dialog: { kind: 'non-provider', message }, clearDependent: false };
    case 'not_accepting':
      return { dialog: { kind: 'enrol-error', message, hint: ENROLMENT_TEXTS.selectAnother }, clearDependent: false };
    default:
      return { dialog: { kind: 'enrol-error', message, hint: null }, clearDependent: false };
  }
}
