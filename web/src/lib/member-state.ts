/**
 * The enrolment state of the member acted on, as the marketplace buttons and the enrolment flow
 * need it. Null means signed out (or member info not loaded yet). The app provider fills
 * `MemberStateContext` from the member info (GET /member/app/member/info) whenever a token
 * cookie exists, and follows the selected family member.
 */
import { createContext, useContext, useSyncExternalStore } from 'react';
import { fullName, type FamilyMember, type Member, type NextStep, type Status } from '@/lib/member';
import { selectedDependent } from '@/lib/storage';

export interface MemberState {
  /**
   * Null when the member acted on is the signed-in member; a family member's id otherwise (the
   * enrolment and search calls then go through /member/app/family/member/{id}/...).
   */
  dependentId: number | null;
  /** The acted-on member's full name and first name (dialogs speak of them). */
  name: string;
  firstName: string;
  nextStep: NextStep;
  setup: 'incomplete' | 'complete' | null;
  subscriptionStatus: Status | null;
  /** The location the member is enrolled with or has chosen, if any. */
  locationId: number | null;
  /** That location's name (the cannot-enrol and change-provider dialogs name it). */
  clinicName: string | null;
  /** The chosen location's own name ("LoDo"), which tells an organisation's clinics apart. */
  clinicLocationName: string | null;
  /**
   * The subscriber has family (the roster lists others under them, or family members are on the
   * account): after Connect me now they are asked to add family. Always false for a family member.
   */
  hasFamily: boolean;
}

export const MemberStateContext = createContext<MemberState | null>(null);

export function useMemberState(): MemberState | null {
  return useContext(MemberStateContext);
}

/** The id of the family member chosen to act on (menu Select Provider, the member picker), or null. */
export function useSelectedDependentId(): number | null {
  return useSyncExternalStore(selectedDependent.subscribe, selectedDependent.get, () => null);
}

/**
 * The member acted on: a family member the subscriber selected (Select Provider in the menu, the
 * member picker) when they are on the account; otherwise the subscriber (Self) by default, and for
 * anyone else the first associated dependent when there is one.
 */
export function actedOnMember(member: Member, selectedDependentId: number | null = null): { person: Member | FamilyMember; dependentId: number | null } {
  const family = member.subscriberRelation === 'Self' ? (member.family ?? []) : [];
  const selected = selectedDependentId === null ? undefined : family.find((person) => person.id === selectedDependentId && person.id !== member.id);
  if (selected) return { person: selected, dependentId: selected.id };
  const dependent = member.subscriberRelation && member.subscriberRelation !== 'Self' ? member.associatedDependents?.[0] : undefined;
  if (dependent) return { person: dependent, dependentId: dependent.id };
  return { person: member, dependentId: null };
}

export function memberStateFrom(member: Member | null | undefined, selectedDependentId: number | null = null): MemberState | null {
  if (!member) return null;
  const { person, dependentId } = actedOnMember(member, selectedDependentId);
  const setup = 'setup' in person && person.setup ? person.setup : dependentId === null ? member.setup : null;
  return {
    dependentId,
    name: fullName(person),
    firstName: person.firstName ?? '',
    nextStep: person.nextStep ?? member.nextStep,
    setup: setup ?? null,
    subscriptionStatus: person.subscription?.status ?? null,
    locationId: person.locationId ?? null,
    clinicName: person.location?.name ?? ('provider' in person ? person.provider?.companyName : null) ?? null,
    clinicLocationName: person.location?.locationName ?? null,
    hasFamily: dependentId === null && member.subscriberRelation === 'Self' && (Boolean(member.hasFamily) || (member.family ?? []).some((other) => other.id !== member.id)),
  };
}
