/**
 * The member's enrolment state as the marketplace buttons need it. Null means signed out (or
 * member info not loaded yet). The accounts feature provides the real value through
 * `MemberStateContext` once it loads member info for the subscriber or the selected dependent.
 */
import { createContext, useContext } from 'react';

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
