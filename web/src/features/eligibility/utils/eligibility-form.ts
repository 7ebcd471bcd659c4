import { ApiError, fieldError } from '@/lib/api-client';
import { ELIGIBILITY_TEXTS } from '@/lib/eligibility-texts';
import type { Payer, Plan, Relation } from '@/lib/member';
import { dateError, memberIdError, MESSAGES, phoneError, requiredError } from '@/lib/validation';
import type { ConfirmInfoError, ConfirmInfoResponse } from '@/api/eligibility/types';

export interface EligibilityValues {
  firstName: string;
  lastName: string;
  /** As typed, MM/DD/YYYY. */
  dob: string;
  gender: string;
  phone: string;
  relation: Relation | '';
  memberId: string;
  payerId: string;
  planId: string;
  subscriberMemberId: string;
}

export type EligibilityErrors = Partial<Record<keyof EligibilityValues, string>>;

/** 'person whose employment makes them eligible for group health insurance' */
export const SUBSCRIBER_TOOLTIP = 'person whose employment makes them eligible for group health insurance';

/** Relationship choices: Spouse or Dependent when a Self subscriber adds family, otherwise Dependent, Self, Spouse. */
export function relationOptions(addingFamily: boolean): Relation[] {
  return addingFamily ? ['Spouse', 'Dependent'] : ['Dependent', 'Self', 'Spouse'];
}

/** The server's longest identifier (plan and member ids). */
export const PLAN_ID_MAX_LENGTH = 40;

/** The Plan ID of 'Insert Your plan ID': required, letters, digits and hyphens only (the input stops at 40 characters). */
export function planIdError(value: string): string | null {
  const id = value.trim();
  if (!id) return MESSAGES.required;
  return /^[A-Za-z0-9-]+$/.test(id) ? null : MESSAGES.specialCharacters;
}

/**
 * The payers with the plans found by Plan ID added: a plan joins its own payer (else the
 * fallback payer), and a payer the list did not have is added.
 */
export function withPulledPlans(payers: Payer[], pulled: Plan[], fallbackPayerId: string): Payer[] {
  if (pulled.length === 0) return payers;
  const result = payers.map((payer) => ({ ...payer, plans: [...payer.plans] }));
  for (const plan of pulled) {
    const payerId = plan.payerId || fallbackPayerId;
    let payer = result.find((item) => item.payerId === payerId);
    if (!payer) {
      payer = { payerId, payerName: plan.payerName ?? payerId, plans: [] };
      result.push(payer);
    }
    if (!payer.plans.some((item) => item.planId === plan.planId)) payer.plans.push(plan);
  }
  return result;
}

/** Spouse and Dependent need the subscriber's (employee's) member ID. */
export function needsSubscriberId(relation: Relation | ''): boolean {
  return relation === 'Spouse' || relation === 'Dependent';
}

/** Every message of the eligibility form; an empty object means Confirm Eligibility may be pressed. */
export function eligibilityErrors(values: EligibilityValues, { payerFieldShown }: { payerFieldShown: boolean }): EligibilityErrors {
  const errors: EligibilityErrors = {};
  const set = (key: keyof EligibilityValues, message: string | null) => {
    if (message) errors[key] = message;
  };
  set('firstName', requiredError(values.firstName));
  set('lastName', requiredError(values.lastName));
  set('dob', dateError(values.dob));
  set('gender', requiredError(values.gender));
  set('phone', phoneError(values.phone));
  set('relation', requiredError(values.relation));
  set('memberId', memberIdError(values.memberId));
  if (payerFieldShown) set('payerId', requiredError(values.payerId));
  set('planId', requiredError(values.planId));
  if (needsSubscriberId(values.relation)) set('subscriberMemberId', memberIdError(values.subscriberMemberId));
  return errors;
}


export type EligibilityOutcome =
  | { kind: 'confirmed'; answer: ConfirmInfoResponse }
  | { kind: 'subscriber-info' }
  | { kind: 'could-not-confirm' }
  | { kind: 'account-exists' }
  | { kind: 'not-eligible' }
  | { kind: 'retry' }
  | { kind: 'system-down' }
  | { kind: 'no-data' }
  /** A refusal about one field (a date of birth in the future, too long a name): shown there. */
  | { kind: 'field'; field: string; message: string }
  | { kind: 'error'; message: string };

/**
 * Maps the confirm/info answer to the dialog it opens (spec 4 and 8): 400 wrong data asks for
 * the subscriber's information (a Self subscriber, or a second try, gets "could not confirm"),
 * 400 'Member already exists' the account-exists dialog, 401 not eligible on this plan, 500 the
 * retry dialog when the roster check is down, else system down; anything else an error modal.
 */
export function eligibilityOutcome(result: { answer?: ConfirmInfoResponse | null; error?: unknown }, context: { relation: Relation | ''; subscriberSent: boolean }): EligibilityOutcome {
  if (result.answer !== undefined) {
    if (!result.answer || !result.answer.nextStep) return { kind: 'error', message: ELIGIBILITY_TEXTS.confirmError };
    return { kind: 'confirmed', answer: result.answer };
  }
  const error = result.error;
  if (!(error instanceof ApiError)) return { kind: 'error', message: ELIGIBILITY_TEXTS.confirmError };
  const body = (error.body ?? {}) as ConfirmInfoError;
  if (error.status === 400) {
    if (error.message === ELIGIBILITY_TEXTS.memberExists || error.code === 'member_exists') return { kind: 'account-exists' };
    if (error.message === ELIGIBILITY_TEXTS.wrongData || error.code === 'eligibility_not_verified') {
      return context.relation === 'Self' || context.subscriberSent ? { kind: 'could-not-confirm' } : { kind: 'subscriber-info' };
    }
    const onField = fieldError(error);
    if (onField) return { kind: 'field', ...onField };
    return { kind: 'error', message: error.message || ELIGIBILITY_TEXTS.confirmError };
  }
  if (error.status === 401) {
    // A 401 about the session itself (expired access token) is not an eligibility answer.
    const sessionProblem = error.code === 'unauthorized' || error.code.includes('token');
    return sessionProblem ? { kind: 'no-data' } : { kind: 'not-eligible' };
  }
  if (error.status >= 500) return body.eligibility?.err?.chcDown ? { kind: 'retry' } : { kind: 'system-down' };
  return { kind: 'error', message: error.message && error.message !== MESSAGES.somethingWrong ? error.message : ELIGIBILITY_TEXTS.confirmError };
}

/** Where the page goes when the member leaves it: the stored redirect (/home, /account/details), else /marketplace. */
export function redirectPath(stored: string | null): string {
  return stored === '/home' || stored === '/account/details' ? stored : '/marketplace';
}
