/**
 * The provider side's rules as pure functions (spec 4 "Solution participation",
 * docs/provider-contract.md): which label and which button each participation state gets, and the
 * spec's exact texts.
 */

/** The spec's texts, exactly (including its spelling of "paricipating"). */
export const PROVIDER_TEXTS = {
  noSolutions: 'You are not paricipating in any solution!',
  noFavorites: 'There are no solutions marked as favorites!',
  selectRateFirst: 'Please select rate first',
  participate: 'Participate',
  stopParticipating: 'Stop Participating',
  pendingApproval: 'Pending Approval',
  retryTitle: 'Oops, something went wrong. Please try again.',
  noParticipations: 'You have not asked to participate in any solution yet.',
} as const;

/** The four states the screens show. */
export type ParticipationState = 'notContracted' | 'pending' | 'active' | 'inactive';

/** No participation is Not contracted, pending is Pending Approval, active is Active, anything else Inactive. */
export function participationState(status: string | null | undefined): ParticipationState {
  if (status === null || status === undefined || status === '' || status === 'notContracted') return 'notContracted';
  if (status === 'pending') return 'pending';
  if (status === 'active') return 'active';
  return 'inactive';
}

const LABELS: Record<ParticipationState, string> = {
  notContracted: 'Not contracted',
  pending: 'Pending Approval',
  active: 'Active',
  inactive: 'Inactive',
};

/** The status label of a state (the card's chip, the Enrollment/Participation section). */
export function stateLabel(state: ParticipationState): string {
  return LABELS[state];
}

/** The detail page's button: what it says, whether it can be pressed, and what it does. */
export interface ParticipationButton {
  label: string;
  action: 'participate' | 'stop' | null;
  disabled: boolean;
}

/** Participate (not contracted, inactive), Pending Approval (disabled, pending), Stop Participating (active). */
export function participationButton(state: ParticipationState): ParticipationButton {
  switch (state) {
    case 'pending':
      return { label: PROVIDER_TEXTS.pendingApproval, action: null, disabled: true };
    case 'active':
      return { label: PROVIDER_TEXTS.stopParticipating, action: 'stop', disabled: false };
    default:
      return { label: PROVIDER_TEXTS.participate, action: 'participate', disabled: false };
  }
}

/** How often a fee is charged (spec 9): TPA per member per month, the others per transaction. */
export function feeCadence(entity: string): string {
  return entity.toUpperCase().startsWith('TPA') ? 'per member per month' : 'per transaction';
}
