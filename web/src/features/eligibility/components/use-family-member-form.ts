import type { PersonValues } from '@/components/forms/person-fields';
import { useFormFields } from '@/components/forms/use-form-fields';
import type { FamilyMember, Member, Relation } from '@/lib/member';
import { dateError, displayPhone, emailError, formatIdRule, idRuleError, isoToUsDate, MESSAGES, normaliseEmail, phoneError, requiredError, usDateToIso } from '@/lib/validation';
import type { FamilyMemberRequest } from '@/api/family/family-members';

export interface FamilyValues extends PersonValues {
  relation: Relation | '';
  useMyContact: boolean;
  memberId: string;
}

type FamilyField = 'relation' | 'firstName' | 'lastName' | 'dob' | 'gender' | 'email' | 'phone' | 'memberId' | 'plan';

/** Today as MM/DD/YYYY: the form's default date of birth. */
function today(): string {
  const now = new Date();
  return `${String(now.getMonth() + 1).padStart(2, '0')}/${String(now.getDate()).padStart(2, '0')}/${now.getFullYear()}`;
}

export function blankFamilyValues(): FamilyValues {
  return { relation: '', firstName: '', lastName: '', dob: today(), gender: '', email: '', phone: '', useMyContact: false, memberId: '' };
}

/** A stored family member as the form shows them (revise mode). */
function storedValues(person: FamilyMember): FamilyValues {
  const relation = person.subscriberRelation === 'Spouse' || person.subscriberRelation === 'Dependent' ? person.subscriberRelation : '';
  return {
    relation,
    firstName: person.firstName ?? '',
    lastName: person.lastName ?? '',
    dob: isoToUsDate(person.dob) || today(),
    gender: person.gender === 'f' || person.gender === 'm' ? person.gender : '',
    email: person.email ?? '',
    phone: displayPhone(person.phone),
    useMyContact: false,
    memberId: person.memberId ?? '',
  };
}

/**
 * The add-family form: the family member's details, their contact (or the subscriber's, with
 * 'Use my contact information', never for a spouse) and the plan copied from the account.
 */
export function useFamilyMemberForm(member: Member | null, revise: FamilyMember | null, planId: string) {
  const form = useFormFields<FamilyValues, FamilyField>(
    () => (revise ? storedValues(revise) : blankFamilyValues()),
    (values) => {
      const { email, phone } = contactOf(values);
      return {
        relation: requiredError(values.relation),
        firstName: requiredError(values.firstName),
        lastName: requiredError(values.lastName),
        dob: dateError(values.dob),
        gender: requiredError(values.gender),
        email: emailError(email, { requiredMessage: MESSAGES.required }),
        phone: phoneError(phone),
        memberId: idRuleError(values.memberId),
        plan: planId ? null : MESSAGES.required,
      };
    },
  );
  const { values } = form;

  /** The contact sent and shown: the subscriber's when chosen. */
  function contactOf(current: FamilyValues) {
    const usesMine = current.useMyContact && current.relation !== 'Spouse';
    return { usesMine, email: usesMine ? (member?.email ?? '') : current.email, phone: usesMine ? displayPhone(member?.phone) : current.phone };
  }
  const contact = contactOf(values);

  /** The body of the create and confirm calls. */
  function request(): FamilyMemberRequest {
    return {
      subscriberRelation: values.relation as Relation,
      firstName: values.firstName.trim(),
      lastName: values.lastName.trim(),
      dob: usDateToIso(values.dob)!,
      gender: values.gender,
      memberId: formatIdRule(values.memberId),
      planId,
      payerId: member?.payerId ?? '',
      groupId: member?.groupId ?? '',
      companyName: member?.companyName ?? null,
      email: normaliseEmail(contact.email),
      phone: contact.phone.trim(),
      useMyContact: contact.usesMine,
    };
  }

  return { form, contact, request };
}
