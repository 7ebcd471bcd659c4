import type { MemberState } from '@/lib/member-state';

export type ClinicFooterKind = 'confirm-eligibility' | 'pending-membership' | 'active-membership' | 'select' | 'waitlist' | 'waitlisted';

/**
 * The clinic profile's footer button, by member state (spec: "The footer button depends on
 * state"); 'waitlisted' when the full clinic's waitlist is already joined.
 */
export function clinicFooterAction(
  clinic: { locationId: number; newPatients: boolean },
  member: Pick<MemberState, 'nextStep' | 'subscriptionStatus' | 'locationId'> | null,
  waitlisted = false,
): ClinicFooterKind {
  const isMemberLocation = member !== null && member.locationId === clinic.locationId;
  if (isMemberLocation) {
    if (member.nextStep === 'confirmPlan' && clinic.newPatients) return 'confirm-eligibility';
    if (member.subscriptionStatus === 'pending') return 'pending-membership';
    if (member.subscriptionStatus === 'active') return 'active-membership';
  }
  if (clinic.newPatients) return 'select';
  return waitlisted ? 'waitlisted' : 'waitlist';
}
