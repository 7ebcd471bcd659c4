/**
 * The signed-in member as GET /member/app/member/info returns it, shared by the shell (avatar
 * menu, member state) and the accounts features (home, membership, account, eligibility).
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { queryKeys } from '@/api/query-keys';
import { apiRequest } from '@/lib/api-client';
import { useAccountKind } from '@/lib/session';

/** The provider's member portal: `{link}` from the server (a plain link is accepted too). */
export type ProviderPortal = { link?: string | null } | string | null | undefined;

export type NextStep = 'selectDPC' | 'confirmPlan' | 'complete';
export type Relation = 'Self' | 'Spouse' | 'Dependent';
export type Status = 'pending' | 'active' | 'inactive';

export interface MemberLocation {
  id: number;
  name: string;
  locationName?: string;
  logo?: string | null;
  address1?: string;
  city?: string;
  state?: string;
  zip?: string;
  phone?: string | null;
}

export interface Plan {
  planId: string;
  name: string;
  groupId?: string;
  payerId?: string;
  payerName?: string;
}

export interface Payer {
  payerId: string;
  payerName: string;
  plans: Plan[];
}

export interface EmployerGroup {
  groupId: string;
  tpa?: { payerId: string };
  payerId?: string;
  planId?: string;
}

/**
 * The member's newest membership at a clinic (docs/clinic-panel-contract.md): pending the first
 * visit, active since it, declined or ended by the clinic (with its reason), moved or cancelled.
 */
export interface MemberMembership {
  id: number;
  status: 'pending' | 'active' | 'declined' | 'ended' | 'moved' | 'cancelled';
  clinic: { id: number; providerId: number; name: string | null; locationName?: string | null };
  enrolledAt: string;
  activeFrom: string | null;
  activeUntil: string | null;
  closedAt: string | null;
  reason: string | null;
}

/** A family member as the member info lists it. */
export interface FamilyMember {
  id: number;
  firstName: string;
  lastName: string;
  subscriberRelation?: Relation;
  dob?: string | null;
  gender?: string | null;
  email?: string | null;
  phone?: string | null;
  zipCode?: string | null;
  memberId?: string | null;
  companyName?: string | null;
  employer?: { companyName?: string | null } | null;
  providerId?: number | null;
  locationId?: number | null;
  provider?: { id?: number; companyName?: string | null } | null;
  location?: MemberLocation | null;
  nextStep?: NextStep;
  setup?: 'incomplete' | 'complete' | null;
  nextVisit?: string | null;
  planId?: string | null;
  payerId?: string | null;
  groupId?: string | null;
  subscriberMemberId?: string | null;
  eligibility?: { status: Status | null } | null;
  subscription?: { status: Status | null; expire?: string | null } | null;
  providerPortal?: ProviderPortal;
  membership?: MemberMembership | null;
}

export interface Member {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  dob: string | null;
  gender: 'f' | 'm' | null;
  phone: string | null;
  zipCode?: string | null;
  memberId: string | null;
  planId: string | null;
  payerId: string | null;
  groupId: string | null;
  /** The plan's name, when the server resolves it. */
  planName?: string | null;
  employerId: number | null;
  companyName: string | null;
  subscriberRelation: Relation | null;
  subscriberMemberId?: string | null;
  /** The Self subscriber, for a spouse or dependent on a family account. */
  subscriberId?: number | null;
  nextStep: NextStep;
  setup: 'incomplete' | 'complete';
  emailVerified?: boolean;
  /** Email notifications on (the sign-up 'keep me posted' flag); PUT /member/app/notifications changes it. */
  notify?: boolean;
  /** Presence (or true) means a password is set; hashes are never sent. */
  password?: boolean | string | null;
  hasPassword?: boolean;
  eligibility: { status: Status | null } | null;
  subscription: { status: Status | null; expire: string | null } | null;
  providerId: number | null;
  locationId: number | null;
  location: MemberLocation | null;
  providerPortal: ProviderPortal;
  membership?: MemberMembership | null;
  family?: FamilyMember[];
  associatedDependents?: FamilyMember[];
  hasFamily?: boolean;
  /** The employer's payers and their plans, for the eligibility form. */
  payers?: Payer[];
  plans?: Plan[];
  employer?: { id: number; companyName: string; status?: string; groups?: EmployerGroup[] } | null;
}

/** GET /member/app/member/info: the signed-in member. */
export function getMemberInfo(signal?: AbortSignal): Promise<Member> {
  return apiRequest<Member>('/member/app/member/info', { signal });
}

export function memberInfoQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.member.info(),
    queryFn: ({ signal }) => getMemberInfo(signal),
    staleTime: 30_000,
  });
}

/** The member, loaded only while a member's token cookie exists (a provider's token is refused with 403). */
export function useMemberInfo() {
  const kind = useAccountKind();
  return useQuery({ ...memberInfoQueryOptions(), enabled: kind === 'member' });
}

/** The signed-in member's employer as the marketplace keeps it, or null without one. */
export function memberEmployer(member: Member | null | undefined): { id: number; companyName: string; status: 'active' | 'inactive' | 'pending' } | null {
  const employer = member?.employer;
  if (!employer?.companyName) return null;
  const status = employer.status === 'inactive' || employer.status === 'pending' ? employer.status : 'active';
  return { id: employer.id, companyName: employer.companyName, status };
}

export function fullName(person: { firstName?: string | null; lastName?: string | null } | null | undefined): string {
  return [person?.firstName, person?.lastName].filter(Boolean).join(' ');
}

/** The member's plan by name, from the employer's payers and plans; else the plan id. */
export function planLabel(member: Pick<Member, 'planId' | 'planName' | 'payers' | 'plans'>): string | null {
  if (member.planName) return member.planName;
  if (!member.planId) return null;
  const plans = [...(member.payers ?? []).flatMap((payer) => payer.plans), ...(member.plans ?? [])];
  return plans.find((plan) => plan.planId === member.planId)?.name ?? member.planId;
}

/** The portal link, or null when the provider has none. */
export function portalLink(portal: ProviderPortal): string | null {
  const link = typeof portal === 'string' ? portal : portal?.link;
  return link && link.trim() ? link.trim() : null;
}

/** The fields PUT /member/app/personal/info takes: the member record without its joined parts. */
export function personalInfoBody(member: Member | null, changes: Partial<Member> = {}): Partial<Member> {
  const merged = { ...(member ?? {}), ...changes } as Partial<Member>;
  const keys = ['firstName', 'lastName', 'dob', 'gender', 'email', 'phone', 'zipCode', 'memberId', 'groupId', 'payerId', 'planId', 'subscriberRelation', 'subscriberMemberId', 'employerId', 'companyName'] as const;
  const body: Partial<Record<(typeof keys)[number], unknown>> = {};
  for (const key of keys) if (merged[key] !== undefined) body[key] = merged[key];
  return body as Partial<Member>;
}

export function hasPassword(member: Pick<Member, 'password' | 'hasPassword'>): boolean {
  return Boolean(member.hasPassword ?? member.password);
}

export interface StatusDisplay {
  label: string;
  tone: 'pending' | 'active' | 'inactive' | 'none';
}

/** Account details and Home: 'Pending first visit' (yellow), 'Active', 'Inactive', else 'Eligibility, not confirmed'. */
export function accountStatus(status: string | null | undefined): StatusDisplay {
  if (status === 'pending') return { label: 'Pending first visit', tone: 'pending' };
  if (status === 'active') return { label: 'Active', tone: 'active' };
  if (status === 'inactive') return { label: 'Inactive', tone: 'inactive' };
  return { label: 'Eligibility, not confirmed', tone: 'none' };
}

/**
 * The membership card (spec 4): Pending (amber), Active (green), Inactive (red), anything else
 * 'Error' (gray), a card without a membership status included; the card's provider line and the
 * membership steps above it say what is still to do ("Needs a provider").
 */
export function membershipCardStatus(status: string | null | undefined): StatusDisplay {
  if (status === 'pending') return { label: 'Pending', tone: 'pending' };
  if (status === 'active') return { label: 'Active', tone: 'active' };
  if (status === 'inactive') return { label: 'Inactive', tone: 'inactive' };
  return { label: 'Error', tone: 'none' };
}

export const GENDER_LABELS: Record<'f' | 'm', string> = { f: 'Female', m: 'Male' };

const MONTH_NAMES = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A day or timestamp from the server as "Nov 3, 2026" (the UTC day, as the clinic recorded it). */
export function longDate(value: string | null | undefined): string | null {
  if (!value) return null;
  const date = new Date(value.length === 10 ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(date.getTime())) return null;
  return `${MONTH_NAMES[date.getUTCMonth()]} ${date.getUTCDate()}, ${date.getUTCFullYear()}`;
}

/**
 * The dates of a live or ended membership as a label and a day: enrolled on (pending), active
 * since the first visit (active), ended on its last day (ended). Null otherwise.
 */
export function membershipDate(membership: MemberMembership | null | undefined): { label: string; value: string } | null {
  if (!membership) return null;
  const day = (label: string, value: string | null) => {
    const text = longDate(value);
    return text ? { label, value: text } : null;
  };
  if (membership.status === 'pending') return day('Enrolled On', membership.enrolledAt);
  if (membership.status === 'active') return day('Active Since', membership.activeFrom);
  if (membership.status === 'ended') return day('Ended On', membership.activeUntil);
  return null;
}
