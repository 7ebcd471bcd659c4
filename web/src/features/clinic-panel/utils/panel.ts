/** What the clinic panel shows, as pure rules (docs/clinic-panel-contract.md). */
import type { HistoryEvent, PanelMember, PanelMembership, PanelStatus, PanelTab } from '@/api/clinic-panel/types';
import type { StatusTone } from '@/components/ui/status-dot';

export const PANEL_TABS: { key: PanelTab; label: string }[] = [
  { key: 'pending', label: 'New' },
  { key: 'active', label: 'Active' },
  { key: 'past', label: 'Past' },
];

/** The longest decline or end reason the server takes. */
export const REASON_MAX = 500;

/** A membership's status as a label and a dot colour. */
export function statusDisplay(status: PanelStatus): { label: string; tone: StatusTone } {
  switch (status) {
    case 'pending':
      return { label: 'Pending first visit', tone: 'pending' };
    case 'active':
      return { label: 'Active', tone: 'active' };
    case 'declined':
      return { label: 'Declined', tone: 'inactive' };
    case 'ended':
      return { label: 'Ended', tone: 'inactive' };
    case 'moved':
      return { label: 'Moved to another clinic', tone: 'none' };
    case 'cancelled':
      return { label: 'Removed from family account', tone: 'none' };
  }
}

/** "Subscriber", or the dependent's relationship. */
export function relationLabel(relation: string | null | undefined): string {
  if (!relation || relation === 'Self') return 'Subscriber';
  return relation === 'Dependent' ? 'Dependent (child)' : `Dependent (${relation.toLowerCase()})`;
}

export function fullName(person: { firstName?: string | null; lastName?: string | null; email?: string | null; id?: number }): string {
  const name = [person.firstName, person.lastName].map((part) => (part ?? '').trim()).filter(Boolean).join(' ');
  return name || person.email || `Member ${person.id ?? ''}`.trim();
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A day or a timestamp from the server as "Nov 3, 2026" (the UTC day, as the server counts days). */
export function formatDay(value: string | null | undefined): string {
  if (!value) return '—';
  const date = new Date(value.length === 10 ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(date.getTime())) return '—';
  return `${MONTHS[date.getUTCMonth()]} ${date.getUTCDate()}, ${date.getUTCFullYear()}`;
}

/** A timestamp as "Nov 3, 2026, 14:05 UTC". */
export function formatMoment(value: string | null | undefined): string {
  if (!value) return '—';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '—';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${formatDay(value)}, ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())} UTC`;
}

function isoDay(date: Date, utc: boolean): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return utc
    ? `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`
    : `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/**
 * Today for a date field: the local day, but never after the server's (UTC) day, which refuses a
 * first visit or an end date after it.
 */
export function todayForForm(now = new Date()): string {
  const local = isoDay(now, false);
  const utc = isoDay(now, true);
  return local < utc ? local : utc;
}

/** The current month as YYYY-MM (the roster's newest month). */
export function currentMonth(now = new Date()): string {
  return todayForForm(now).slice(0, 7);
}

/** The line under a row's name: when it joined, started or left. */
export function membershipDates(membership: PanelMembership): string {
  switch (membership.status) {
    case 'pending':
      return `Enrolled ${formatDay(membership.enrolledAt)}`;
    case 'active':
      return `Active since ${formatDay(membership.activeFrom)}`;
    case 'ended':
      return `Active ${formatDay(membership.activeFrom)} – ${formatDay(membership.activeUntil)}`;
    default:
      return `${statusDisplay(membership.status).label} ${formatDay(membership.closedAt)}`;
  }
}

/** Which decisions a membership allows. */
export function allowedDecisions(membership: Pick<PanelMembership, 'status'>): ('activate' | 'decline' | 'end')[] {
  if (membership.status === 'pending') return ['activate', 'decline'];
  if (membership.status === 'active') return ['end'];
  return [];
}

/** One history line: what happened, in words. */
export function historyText(event: HistoryEvent): string {
  const at = event.location?.name ? ` at ${event.location.name}` : '';
  switch (event.kind) {
    case 'enrolled':
      return `Enrolled${at}`;
    case 'moved_in':
      return `Enrolled${at}, moving from another clinic`;
    case 'location_changed':
      return `Changed location from ${event.fromLocation?.name ?? 'another location'} to ${event.location?.name ?? 'another location'}`;
    case 'moved_away':
      return `Moved to another clinic (was${at})`;
    case 'activated':
      return `Activated: first visit on ${formatDay(event.date)}`;
    case 'declined':
      return 'Enrolment declined';
    case 'ended':
      return `Membership ended, last day ${formatDay(event.date)}`;
    case 'cancelled':
      return 'Taken off their family’s account';
  }
}

/** The row's accessible name: the member and where they enrolled. */
export function rowLabel(member: PanelMember): string {
  return `${fullName(member)}, ${member.location.name ?? 'a location'}`;
}
