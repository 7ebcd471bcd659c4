import { Link } from 'react-router';
import { usePanelMember } from '@/api/clinic-panel/get-panel-member';
import type { PanelMemberDetail } from '@/api/clinic-panel/types';
import { ChevronLeftIcon } from '@/components/icons/icons';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { StatusDot } from '@/components/ui/status-dot';
import { paths } from '@/config/paths';
import { isApiError } from '@/lib/api-client';
import { displayPhone } from '@/lib/validation';
import { allowedDecisions, formatDay, formatMoment, fullName, historyText, relationLabel, statusDisplay } from '../utils/panel';
import { useDecisions, type DecisionKind } from './decision-dialog';
import styles from './clinic-panel.module.css';

const ELIGIBILITY: Record<string, string> = { active: 'Confirmed', pending: 'Being checked', inactive: 'Not eligible' };

/** /dpc-providers/members/{id}: one member, their membership here, family here and history. */
export function MemberDetailPage({ memberId }: { memberId: number }) {
  const found = usePanelMember(memberId);
  const decisions = useDecisions();
  const back = (
    <Link to={paths.providerMembers.path} className={styles.back}>
      <ChevronLeftIcon size={18} /> Members
    </Link>
  );
  if (found.isPending) return <Spinner label="Loading the member" />;
  if (found.isError || !found.data) {
    return (
      <div className={styles.detailPage}>
        {back}
        <Alert tone="error" title={isApiError(found.error, 404) ? 'Member not found' : 'Oops. Something went wrong'}>
          {isApiError(found.error, 404) ? 'This member is not enrolled with your organisation.' : 'We could not load this member. Please reload the page.'}
        </Alert>
      </div>
    );
  }
  const detail = found.data;
  const name = fullName(detail.member);
  function choose(kind: DecisionKind) {
    decisions.choose({ kind, memberId, name, membership: detail.membership });
  }
  return (
    <div className={styles.detailPage}>
      {back}
      <header className={styles.detailHead}>
        <div>
          <h1>{name}</h1>
          <StatusDot {...statusDisplay(detail.membership.status)} />
        </div>
        <div className={styles.actions}>
          {allowedDecisions(detail.membership).map((kind) => (
            <Button key={kind} variant={kind === 'activate' ? 'primary' : 'secondary'} onClick={() => choose(kind)}>
              {kind === 'activate' ? 'Activate' : kind === 'decline' ? 'Decline' : 'End membership'}
            </Button>
          ))}
        </div>
      </header>
      {decisions.notice}
      <div className={styles.detailGrid}>
        <section className={styles.panelSection} aria-labelledby="member-facts">
          <h2 id="member-facts">Member</h2>
          <Facts detail={detail} />
        </section>
        <section className={styles.panelSection} aria-labelledby="member-membership">
          <h2 id="member-membership">Membership</h2>
          <MembershipFacts detail={detail} />
        </section>
        <section className={styles.panelSection} aria-labelledby="member-family">
          <h2 id="member-family">Family at your clinics</h2>
          {detail.family.length === 0 ? (
            <p className={styles.muted}>No other family member is enrolled with you.</p>
          ) : (
            <ul className={styles.plainList}>
              {detail.family.map((relative) => (
                <li key={relative.id} className={styles.familyItem}>
                  <Link to={paths.providerMember.getHref(relative.id)}>{fullName(relative)}</Link>
                  <span className={styles.muted}>
                    {relationLabel(relative.relation)} · {relative.location.name}
                  </span>
                  <StatusDot {...statusDisplay(relative.status)} />
                </li>
              ))}
            </ul>
          )}
        </section>
        <section className={styles.panelSection} aria-labelledby="member-history">
          <h2 id="member-history">History</h2>
          <ol className={styles.history}>
            {detail.history.map((event, index) => (
              <li key={index}>
                <span className={styles.historyWhat}>{historyText(event)}</span>
                {event.reason ? <q className={styles.reason}>{event.reason}</q> : null}
                <span className={styles.muted}>
                  {formatMoment(event.at)} · by {event.by.name}
                  {event.by.actor === 'provider' ? ' (your clinic)' : ''}
                </span>
              </li>
            ))}
          </ol>
        </section>
      </div>
      {decisions.dialog}
    </div>
  );
}

function Facts({ detail }: { detail: PanelMemberDetail }) {
  const { member } = detail;
  const rows: [string, string][] = [
    ['Date of birth', formatDay(member.dob)],
    ['Phone', displayPhone(member.phone) || '—'],
    ['Email', member.email ?? '—'],
    ['Member ID', member.memberId ?? '—'],
    ['Employer', member.employer ?? '—'],
    ['Plan', member.plan ?? '—'],
    ['Subscriber or dependent', relationLabel(member.relation)],
    ['Eligibility', member.eligibility ? (ELIGIBILITY[member.eligibility] ?? member.eligibility) : 'Not confirmed yet'],
  ];
  return (
    <dl className={styles.facts}>
      {rows.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{label === 'Phone' && value !== '—' ? <a href={`tel:${member.phone}`}>{value}</a> : label === 'Email' && value !== '—' ? <a href={`mailto:${value}`}>{value}</a> : value}</dd>
        </div>
      ))}
    </dl>
  );
}

function MembershipFacts({ detail }: { detail: PanelMemberDetail }) {
  const { membership } = detail;
  const rows: [string, string][] = [
    ['Location', [membership.location.name, membership.location.address].filter(Boolean).join(', ') || '—'],
    ['Enrolled', formatDay(membership.enrolledAt)],
    ['First visit', formatDay(membership.activeFrom)],
  ];
  if (membership.activeUntil) rows.push(['Last day', formatDay(membership.activeUntil)]);
  if (membership.closedAt) rows.push([membership.status === 'declined' ? 'Declined' : 'Closed', formatDay(membership.closedAt)]);
  if (membership.reason) rows.push(['Reason given', membership.reason]);
  return (
    <dl className={styles.facts}>
      {rows.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
