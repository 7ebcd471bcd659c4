import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { usePanelMembers } from '@/api/clinic-panel/get-panel-members';
import type { PanelMember, PanelParams, PanelTab } from '@/api/clinic-panel/types';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { SelectField, TextField } from '@/components/ui/field';
import { Pager } from '@/components/ui/pager';
import { Spinner } from '@/components/ui/spinner';
import { StatusDot } from '@/components/ui/status-dot';
import { Tabs } from '@/components/ui/tabs';
import { paths } from '@/config/paths';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { allowedDecisions, formatDay, fullName, membershipDates, PANEL_TABS, relationLabel, rowLabel, statusDisplay } from '../utils/panel';
import { useDecisions, type DecisionKind } from './decision-dialog';
import { RosterDownload } from './roster-download';
import styles from './clinic-panel.module.css';

const DECISION_LABELS: Record<DecisionKind, string> = { activate: 'Activate', decline: 'Decline', end: 'End' };

/** The tab, location, search and page, kept in the URL so Back and a shared link restore them. */
function usePanelParams(): [PanelParams, (changes: Partial<PanelParams>) => void] {
  const [search, setSearch] = useSearchParams();
  const status = (['pending', 'active', 'past'] as const).find((tab) => tab === search.get('status')) ?? 'pending';
  const location = Number(search.get('location')) || null;
  const page = Math.max(1, Number(search.get('page')) || 1);
  const params: PanelParams = { status, location, q: search.get('q') ?? '', page };
  function update(changes: Partial<PanelParams>) {
    const next = { ...params, ...changes };
    const query = new URLSearchParams();
    if (next.status !== 'pending') query.set('status', next.status);
    if (next.location) query.set('location', String(next.location));
    if (next.q.trim()) query.set('q', next.q);
    if (next.page > 1) query.set('page', String(next.page));
    setSearch(query, { replace: 'q' in changes });
  }
  return [params, update];
}

/**
 * /dpc-providers/members: the members who chose the organisation's clinics. Tabs New, Active and
 * Past; a location filter and a search by name or member id; 20 a page, newest first; Activate
 * and Decline a new member, End an active one; the monthly roster as CSV.
 */
export function MembersPage() {
  const [params, update] = usePanelParams();
  const [typed, setTyped] = useState(params.q);
  const debounced = useDebouncedValue(typed, 300);
  const members = usePanelMembers(params);
  const decisions = useDecisions();

  useEffect(() => {
    if (debounced.trim() !== params.q.trim()) update({ q: debounced, page: 1 });
    // `update` changes with every render; the search follows the typing only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [debounced]);

  const data = members.data;
  const totalPages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;
  const tabs = PANEL_TABS.map((tab) => ({ ...tab, count: data?.counts[tab.key] }));
  const locationOptions = [{ value: '', label: 'All locations' }, ...(data?.locations ?? []).map((location) => ({ value: String(location.id), label: location.name }))];

  function choose(kind: DecisionKind, member: PanelMember) {
    decisions.choose({ kind, memberId: member.id, name: fullName(member), membership: member.membership });
  }

  return (
    <div className={styles.page}>
      <div className={styles.head}>
        <div>
          <h1>Members</h1>
          <p className={styles.muted}>The members who chose your clinics. Activate a new member after their first visit, or decline the enrolment with a reason they will read.</p>
        </div>
        <RosterDownload />
      </div>
      {decisions.notice}
      <Tabs tabs={tabs} active={params.status} onChange={(status: PanelTab) => update({ status, page: 1 })} label="Members by status" idPrefix="panel" />
      <div id={`panel-panel-${params.status}`} role="tabpanel" aria-labelledby={`panel-tab-${params.status}`} className={styles.tabPanel}>
        <div className={styles.filters}>
          <SelectField label="Location" value={params.location ? String(params.location) : ''} onChange={(value) => update({ location: Number(value) || null, page: 1 })} options={locationOptions} />
          <TextField label="Search" type="search" placeholder="Name or member ID" value={typed} onChange={setTyped} maxLength={100} />
        </div>
        {members.isPending ? <Spinner label="Loading members" /> : null}
        {members.isError ? (
          <Alert tone="error" title="Oops. Something went wrong">
            We could not load your members. Please reload the page.
          </Alert>
        ) : null}
        {data && data.members.length === 0 ? <p className={styles.empty}>{emptyText(params)}</p> : null}
        {data && data.members.length > 0 ? (
          <>
            <div className={`${styles.tablePanel} ${styles.desktopOnly}`}>
              <table className={styles.table}>
                <caption className="visually-hidden">{PANEL_TABS.find((tab) => tab.key === params.status)?.label} members</caption>
                <thead>
                  <tr>
                    <th scope="col">Member</th>
                    <th scope="col">Date of birth</th>
                    <th scope="col">Location</th>
                    <th scope="col">Status</th>
                    <th scope="col">
                      <span className="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {data.members.map((member) => (
                    <tr key={member.membership.id}>
                      <th scope="row">
                        <Link to={paths.providerMember.getHref(member.id)}>{fullName(member)}</Link>
                        <span className={styles.subline}>
                          {relationLabel(member.relation)}
                          {member.memberId ? ` · Member ID ${member.memberId}` : ''}
                        </span>
                      </th>
                      <td className={styles.nowrap}>{formatDay(member.dob)}</td>
                      <td>{member.location.name}</td>
                      <td>
                        <StatusDot {...statusDisplay(member.membership.status)} />
                        <span className={styles.subline}>{membershipDates(member.membership)}</span>
                      </td>
                      <td className={styles.rowActions}>
                        <RowActions member={member} onChoose={choose} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <ul className={styles.cardList} aria-label="Members">
              {data.members.map((member) => (
                <li key={member.membership.id}>
                  <article className={styles.memberCard} aria-label={rowLabel(member)}>
                    <div className={styles.cardHead}>
                      <Link to={paths.providerMember.getHref(member.id)} className={styles.cardName}>
                        {fullName(member)}
                      </Link>
                      <StatusDot {...statusDisplay(member.membership.status)} />
                    </div>
                    <p className={styles.muted}>
                      {relationLabel(member.relation)} · born {formatDay(member.dob)}
                      <br />
                      {member.location.name} · {membershipDates(member.membership)}
                    </p>
                    <div className={styles.cardActions}>
                      <RowActions member={member} onChoose={choose} />
                    </div>
                  </article>
                </li>
              ))}
            </ul>
          </>
        ) : null}
        {data ? <Pager page={params.page} totalPages={totalPages} onChange={(page) => update({ page })} label="Member pages" /> : null}
      </div>
      {decisions.dialog}
    </div>
  );
}

function RowActions({ member, onChoose }: { member: PanelMember; onChoose: (kind: DecisionKind, member: PanelMember) => void }) {
  const decisions = allowedDecisions(member.membership);
  if (decisions.length === 0) return null;
  return (
    <div className={styles.actions}>
      {decisions.map((kind) => (
        <Button key={kind} size="sm" variant={kind === 'activate' ? 'primary' : 'secondary'} onClick={() => onChoose(kind, member)} aria-label={`${DECISION_LABELS[kind]} ${fullName(member)}`}>
          {DECISION_LABELS[kind]}
        </Button>
      ))}
    </div>
  );
}

function emptyText(params: PanelParams): string {
  if (params.q.trim() || params.location) return 'No member matches this search.';
  if (params.status === 'pending') return 'No new members. When a member chooses one of your clinics, they appear here and you are emailed.';
  if (params.status === 'active') return 'No active members yet. Activate a new member after their first visit.';
  return 'No past members.';
}
