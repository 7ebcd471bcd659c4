import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { Button, LinkButton } from '@/components/ui/button';
import { CannotEnrolDialog } from '@/components/ui/cannot-enrol-dialog';
import { Card, DetailList } from '@/components/ui/card';
import { InsuranceDetails } from '@/components/ui/insurance-details';
import { MembershipNotice } from '@/components/ui/membership-notice';
import { ProviderSummary } from '@/components/ui/provider-summary';
import { Spinner } from '@/components/ui/spinner';
import { StatusDot } from '@/components/ui/status-dot';
import { paths } from '@/config/paths';
import { accountStatus, fullName, membershipDate, portalLink, useMemberInfo, type Member } from '@/lib/member';
import { redirectTarget } from '@/lib/storage';
import { isoToUsDate } from '@/lib/validation';
import { homeActions } from '../utils/home-actions';
import styles from './home-page.module.css';

/** How long Home waits for the member before giving up (marketplace spec, section 9). */
export const HOME_LOADING_MS = 3000;
export const HOME_FAILURE_TEXT = 'Sorry, something went wrong while fetching your information.';

/**
 * /home: Welcome and the member's name, the chosen clinic, the membership status and the
 * insurance details, with the buttons the member's next step calls for.
 */
export function HomePage() {
  const navigate = useNavigate();
  const member = useMemberInfo();

  useEffect(() => {
    redirectTarget.set(paths.home.path);
  }, []);

  const loaded = member.data?.id !== undefined && member.data?.id !== null;
  // The 3 seconds count from when loading starts, each time it starts, not from the page's first
  // render: a member read again later (after a switch of account) gets its own wait.
  useEffect(() => {
    if (loaded) return;
    const timer = window.setTimeout(() => navigate(paths.login.path, { replace: true, state: { message: HOME_FAILURE_TEXT } }), HOME_LOADING_MS);
    return () => window.clearTimeout(timer);
  }, [loaded, navigate]);

  if (!loaded) {
    return (
      <div className={styles.loading}>
        <Spinner label="Loading your information" />
        {member.isError ? <p className={styles.muted}>{HOME_FAILURE_TEXT}</p> : null}
      </div>
    );
  }
  return <HomeContent member={member.data!} />;
}

function HomeContent({ member }: { member: Member }) {
  const [cannotEnrol, setCannotEnrol] = useState(false);
  const navigate = useNavigate();
  const actions = homeActions(member);
  const subscription = accountStatus(member.subscription?.status);
  const location = member.location;
  const since = membershipDate(member.membership);

  function updateProvider() {
    if (member.subscription?.status === 'active') setCannotEnrol(true);
    else navigate(paths.marketplace.getHref({ selectProvider: 'true' }));
  }

  return (
    <div className={styles.page}>
      <header className={styles.hero}>
        <p className={styles.kicker}>Welcome</p>
        <h1>{fullName(member)}</h1>
      </header>

      <MembershipNotice membership={member.membership} />

      <div className={styles.grid}>
        <Card title="My Advanced Primary Care" className={styles.provider}>
          {location ? (
            <ProviderSummary provider={{ name: location.name, logo: location.logo, address1: location.address1, city: location.city, state: location.state, zip: location.zip }} />
          ) : (
            <p className={styles.muted}>You have not selected a provider yet.</p>
          )}
          <div className={styles.actions}>
            {actions.includes('select-provider') ? <LinkButton to={paths.marketplace.getHref({ selectProvider: 'true' })}>Select Provider</LinkButton> : null}
            {actions.includes('update-provider') ? (
              <Button variant="secondary" onClick={updateProvider}>
                Update My Provider
              </Button>
            ) : null}
            {actions.includes('confirm-eligibility') ? <LinkButton to={paths.confirmPlanInformation.path}>Confirm Eligibility</LinkButton> : null}
            {actions.includes('provider-portal') ? (
              <a className={styles.portal} href={portalLink(member.providerPortal)!} target="_blank" rel="noreferrer">
                Access my provider member portal
              </a>
            ) : null}
          </div>
        </Card>

        <Card title="Membership">
          <DetailList
            items={[
              { label: 'Membership Status', value: <StatusDot label={subscription.label} tone={subscription.tone} /> },
              ...(since ? [since] : []),
              { label: 'Membership Valid Until', value: isoToUsDate(member.subscription?.expire) },
            ]}
          />
          <LinkButton variant="ghost" to={paths.membership.path} className={styles.start}>
            View membership card
          </LinkButton>
        </Card>

        <Card title="Insurance Information" className={styles.insurance}>
          <InsuranceDetails member={member} titleCase />
        </Card>
      </div>
      <CannotEnrolDialog open={cannotEnrol} location={location?.name ?? 'your provider'} onClose={() => setCannotEnrol(false)} />
    </div>
  );
}
