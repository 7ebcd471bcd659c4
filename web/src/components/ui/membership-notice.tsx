import { LinkButton } from '@/components/ui/button';
import { Alert } from '@/components/ui/alert';
import { paths } from '@/config/paths';
import { longDate, type MemberMembership } from '@/lib/member';
import styles from './membership-notice.module.css';

/**
 * What a clinic decided that the member must read (docs/clinic-panel-contract.md): an enrolment
 * it declined, with its reason, or a membership it ended; both send the member to the
 * marketplace to choose another clinic. Nothing for any other state.
 */
export function MembershipNotice({ membership, who = null }: { membership: MemberMembership | null | undefined; who?: string | null }) {
  if (!membership || (membership.status !== 'declined' && membership.status !== 'ended')) return null;
  const clinic = [membership.clinic.name, membership.clinic.locationName].filter(Boolean).join(' — ') || 'The clinic';
  const whose = who ? `${who}'s` : 'your';
  const title =
    membership.status === 'declined'
      ? `${clinic} could not accept ${whose} enrolment`
      : `${clinic} ended ${whose} membership on ${longDate(membership.activeUntil) ?? longDate(membership.closedAt) ?? 'its last day'}`;
  return (
    <div className={styles.notice} data-testid="membership-notice">
      <Alert tone={membership.status === 'declined' ? 'warning' : 'info'} title={title}>
        {membership.reason ? (
          <p className={styles.reason}>
            The clinic&apos;s reason: <q>{membership.reason}</q>
          </p>
        ) : null}
        <p className={styles.next}>{membership.status === 'declined' ? 'Please choose another clinic: your membership starts with the clinic you choose next.' : 'You can choose another clinic in the marketplace.'}</p>
        <LinkButton to={paths.marketplace.getHref({ selectProvider: 'true' })} size="sm">
          Choose another clinic
        </LinkButton>
      </Alert>
    </div>
  );
}
