/**
 * The account forms' values: the fields a member form may show, their rules (with the spec's
 * messages from `lib/validation`), and the conversions between a stored member and the form.
 */
import type { FamilyMember, Member, Relation } from '@/lib/member';
import { dateError, emailError, isoToUsDate, memberIdError, MESSAGES, phoneError, requiredError, usDateToIso } from '@/lib/validation';
import type { FamilyMemberUpdate } from '@/api/family/family-members';

export type MemberField = 'relation' | 'firstName' | 'lastName' | 'dob' | 'gender' | 'employer' | 'email' | 'phone' | 'zipCode' | 'memberId' | 'groupId' | 'payerId' | 'planId';

export type MemberFormValues = Record<MemberField, string>;

const OPTIONAL: MemberField[] = ['zipCode', 'employer'];

/** The account forms' rules: required fields, MM/DD/YYYY dates, numeric member IDs, the phone and email patterns. */
export function memberFormErrors(values: MemberFormValues, fields: MemberField[]): Partial<Record<MemberField, string>> {
  const errors: Partial<Record<MemberField, string>> = {};
  for (const field of fields) {
    const value = values[field] ?? '';
    let message: string | null;
    if (field === 'dob') message = dateError(value);
    else if (field === 'email') message = emailError(value, { requiredMessage: MESSAGES.required, invalidMessage: MESSAGES.emailInvalid });
    else if (field === 'phone') message = phoneError(value);
    else if (field === 'memberId') message = memberIdError(value, { numeric: true });
    else if (field === 'zipCode') message = value && !/^\d{5}(-\d{4})?$/.test(value) ? 'Zip code must have 5 digits' : null;
    else message = OPTIONAL.includes(field) ? null : requiredError(value);
    if (message) errors[field] = message;
  }
  return errors;
}

/** The fields both a member and a family member may carry. */
type Person = Pick<FamilyMember, 'firstName' | 'lastName'> & {
  subscriberRelation?: string | null;
  dob?: string | null;
  gender?: string | null;
  companyName?: string | null;
  employer?: { companyName?: string | null } | null;
  email?: string | null;
  phone?: string | null;
  zipCode?: string | null;
  memberId?: string | null;
  groupId?: string | null;
  payerId?: string | null;
  planId?: string | null;
};

/** A stored member or family member as the form shows them (dates as MM/DD/YYYY). */
export function formValues(person: Person, fallbackEmployer?: string | null): Partial<MemberFormValues> {
  return {
    relation: person.subscriberRelation ?? '',
    firstName: person.firstName ?? '',
    lastName: person.lastName ?? '',
    dob: isoToUsDate(person.dob),
    gender: person.gender ?? '',
    employer: person.companyName ?? person.employer?.companyName ?? fallbackEmployer ?? '',
    email: person.email ?? '',
    phone: person.phone ?? '',
    zipCode: person.zipCode ?? '',
    memberId: person.memberId ?? '',
    groupId: person.groupId ?? '',
    payerId: person.payerId ?? '',
    planId: person.planId ?? '',
  };
}

/** The form's values as the member calls take them (dates back to YYYY-MM-DD). */
export function memberBody(values: MemberFormValues) {
  const { relation, employer: _employer, dob, ...rest } = values;
  return { ...rest, subscriberRelation: (relation || undefined) as Relation | undefined, dob: usDateToIso(dob) ?? dob, gender: values.gender as Member['gender'] };
}

/**
 * The body of PUT /member/app/family/member/{id}: firstName, lastName, email, gender, zipCode,
 * phone and dob (YYYY-MM-DD), from the stored record with `changes` over it. Empty optional
 * values are left out rather than sent blank.
 */
export function familyUpdateBody(person: Pick<FamilyMember, 'firstName' | 'lastName' | 'email' | 'gender' | 'zipCode' | 'phone' | 'dob'>, changes: Partial<Record<keyof FamilyMemberUpdate, string>> = {}): Partial<FamilyMemberUpdate> {
  const merged: Record<string, string | null | undefined> = {
    firstName: person.firstName,
    lastName: person.lastName,
    email: person.email,
    gender: person.gender,
    zipCode: person.zipCode,
    phone: person.phone,
    dob: person.dob,
    ...changes,
  };
  const body: Partial<FamilyMemberUpdate> = {};
  for (const key of ['firstName', 'lastName', 'email', 'gender', 'zipCode', 'phone', 'dob'] as const) {
    const value = merged[key]?.trim();
    if (value) body[key] = value;
  }
  return body;
}
