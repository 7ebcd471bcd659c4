import type { MemberState } from '@/lib/member-state';
import type { MarketItem } from '@/api/market/types';

/** The member state the card buttons depend on (null when signed out): the member acted on. */
export type MemberCardState = Pick<MemberState, 'nextStep' | 'subscriptionStatus' | 'locationId'> & Partial<MemberState>;

export type CardActionKind = 'confirm-eligibility' | 'pending-membership' | 'active-membership' | 'select' | 'waitlist' | 'waitlisted' | 'details';

export interface CardAction {
  kind: CardActionKind;
  label: string;
  /** Status buttons (Pending / Active Membership) show state and do nothing. */
  disabled: boolean;
}

const ACTIONS: Record<CardActionKind, CardAction> = {
  'confirm-eligibility': { kind: 'confirm-eligibility', label: 'Confirm eligibility', disabled: false },
  'pending-membership': { kind: 'pending-membership', label: 'Pending Membership', disabled: true },
  'active-membership': { kind: 'active-membership', label: 'Active Membership', disabled: true },
  select: { kind: 'select', label: 'Select', disabled: false },
  waitlist: { kind: 'waitlist', label: 'Join the waitlist', disabled: false },
  waitlisted: { kind: 'waitlisted', label: 'On the waitlist', disabled: true },
  details: { kind: 'details', label: 'View Details', disabled: false },
};

/**
 * The card's main button, by entity and member state (spec: "Card button by state"); a full clinic
 * whose waitlist the member (or visitor) joined says so instead of offering it again.
 */
export function cardAction(item: Pick<MarketItem, 'entity' | 'locationId' | 'newPatients'>, member: MemberCardState | null, waitlisted = false): CardAction {
  if (item.entity !== 'location') return ACTIONS.details;
  const isMemberLocation = member !== null && member.locationId === item.locationId;
  if (isMemberLocation) {
    // An active membership says so first: the clinic activated it, whatever is left to confirm.
    if (member.subscriptionStatus === 'active') return ACTIONS['active-membership'];
    if (member.nextStep === 'confirmPlan' && item.newPatients) return ACTIONS['confirm-eligibility'];
    if (member.subscriptionStatus === 'pending') return ACTIONS['pending-membership'];
  }
  if (item.newPatients) return ACTIONS.select;
  return waitlisted ? ACTIONS.waitlisted : ACTIONS.waitlist;
}

/**
 * What tells a card apart, for its title and the accessible names of its buttons: a clinic
 * location is its organisation and its location name ('Front Range Direct Primary Care — LoDo'),
 * anything else its name.
 */
export function cardTitle(item: Pick<MarketItem, 'entity' | 'name' | 'locationName'>): { name: string; place: string | null; full: string } {
  const name = (item.name || item.locationName || '').trim();
  const location = (item.locationName ?? '').trim();
  const place = item.entity === 'location' && location && location !== name ? location : null;
  return { name, place, full: place ? `${name} — ${place}` : name };
}

/** A card button's accessible name says which card it acts on: 'Select Front Range Direct Primary Care — LoDo'. */
export function actionName(action: CardAction, title: string): string {
  return action.kind === 'details' ? `View details of ${title}` : `${action.label} ${title}`;
}

export interface EntityLabel {
  label: string;
  /** The label's colour; each entity type has its own. */
  color: string;
}

export const ENTITY_LABELS = {
  virtualNetwork: { label: 'Virtual Network', color: '#6a3fa0' },
  vendor: { label: 'Point Solution Vendor', color: '#00796b' },
  clinic: { label: 'Clinic & Organization', color: '#0b3d91' },
  clinician: { label: 'Clinician', color: '#1c6b45' },
} as const satisfies Record<string, EntityLabel>;

export function entityLabel(item: Pick<MarketItem, 'entity' | 'isVirtualLocation'>): EntityLabel {
  switch (item.entity) {
    case 'provider':
      return ENTITY_LABELS.clinician;
    case 'vendor':
    case 'solution':
      return ENTITY_LABELS.vendor;
    default:
      return item.isVirtualLocation ? ENTITY_LABELS.virtualNetwork : ENTITY_LABELS.clinic;
  }
}
