/**
 * The member's enrolment state as the marketplace buttons need it. Null means signed out (or
 * member info not loaded yet). The app provider fills `MemberStateContext` from the member info
 * (GET /member/app/member/info) whenever a token cookie exists.
 */
import { createContext, useContext } from 'react';
import type { Member } from '@/lib/member';

export interface MemberState {
  nextStep: 'selectDPC' | 'confirmPlan' | 'complete';
  subscriptionStatus: 'pending' | 'active' | 'inactive' | null;
  /** The location the member is enrolled with or has chosen, if any. */
  locationId: number | null;
}

export const MemberStateContext = createContext<MemberState | null>(null);

export function useMemberState(): MemberState | null {
  return useContext(MemberStateContext);
}

/**
 * The member acted on: the subscriber (Self) by default, otherwise the first associated
 * dependent; the buttons follow that member's own state.
 */
export function memberStateFrom(member: Member | null | undefined): MemberState | null {
  if (!member) return null;
  const dependent = member.subscriberRelation && member.subscriberRelation !== 'Self' ? member.associatedDependents?.[0] : undefined;
  const actedOn = dependent ?? member;
  return {
    nextStep: actedOn.nextStep ?? member.nextStep,
    subscriptionStatus: actedOn.subscription?.status ?? null,
    locationId: actedOn.locationId ?? null,
  };
}
