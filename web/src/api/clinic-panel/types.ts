/** Shapes of the clinic panel's calls (docs/clinic-panel-contract.md). */

/** A membership's status at the clinic. */
export type PanelStatus = 'pending' | 'active' | 'declined' | 'ended' | 'moved' | 'cancelled';

/** The panel's tabs: New (pending), Active, Past. */
export type PanelTab = 'pending' | 'active' | 'past';

export interface PanelLocation {
  id: number;
  name: string | null;
  address?: string | null;
}

/** A membership as the panel shows it. */
export interface PanelMembership {
  id: number;
  status: PanelStatus;
  location: PanelLocation;
  enrolledAt: string;
  activeFrom: string | null;
  activeUntil: string | null;
  closedAt: string | null;
  reason: string | null;
}

/** The member's facts the clinic sees. */
export interface PanelMemberFacts {
  id: number;
  firstName: string;
  lastName: string;
  dob: string | null;
  gender?: 'f' | 'm' | null;
  phone: string | null;
  email: string | null;
  /** The insurance member id. */
  memberId: string | null;
  relation: 'Self' | 'Spouse' | 'Dependent' | null;
  employer: string | null;
  plan: string | null;
  eligibility: 'pending' | 'active' | 'inactive' | null;
}

/** A row of GET /dpcproviders/members. */
export interface PanelMember extends PanelMemberFacts {
  location: PanelLocation;
  membership: PanelMembership;
}

/** GET /dpcproviders/members. */
export interface PanelPage {
  status: PanelTab;
  page: number;
  pageSize: number;
  total: number;
  counts: Record<PanelTab, number>;
  locations: { id: number; name: string }[];
  members: PanelMember[];
}

export type HistoryKind = 'enrolled' | 'moved_in' | 'location_changed' | 'moved_away' | 'activated' | 'declined' | 'ended' | 'cancelled';

export interface HistoryEvent {
  at: string;
  kind: HistoryKind;
  by: { actor: 'member' | 'provider' | 'operator'; name: string };
  location: PanelLocation;
  fromLocation?: PanelLocation;
  date: string | null;
  reason: string | null;
}

/** GET /dpcproviders/members/{memberId}. */
export interface PanelMemberDetail {
  member: PanelMemberFacts;
  membership: PanelMembership;
  family: { id: number; firstName: string; lastName: string; relation: string; status: 'pending' | 'active'; location: PanelLocation }[];
  history: HistoryEvent[];
}

/** The question a tab asks. */
export interface PanelParams {
  status: PanelTab;
  location: number | null;
  q: string;
  page: number;
}

/** The answer of a decision. */
export interface PanelDecisionAnswer {
  message: string;
  membership: PanelMembership;
}
