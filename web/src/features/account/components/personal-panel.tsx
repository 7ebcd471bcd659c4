import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { EditIcon } from '@/components/icons/icons';
import { Button, LinkButton } from '@/components/ui/button';
import { CannotEnrolDialog } from '@/components/ui/cannot-enrol-dialog';
import { Card, DetailList } from '@/components/ui/card';
import { InsuranceDetails } from '@/components/ui/insurance-details';
import { ProviderSummary } from '@/components/ui/provider-summary';
import { StatusDot } from '@/components/ui/status-dot';
import { paths } from '@/config/paths';
import { accountStatus, GENDER_LABELS, portalLink, type Member } from '@/lib/member';
import { selectedDependent } from '@/lib/storage';
import { displayPhone, isoToUsDate } from '@/lib/validation';
import styles from './account.module.css';

export const PENDING_ELIGIBILITY_TEXT = '*pending eligibility confirmation';

/** Which buttons the Personal panel shows (2.17). */
export function personalActions(member: Pick<Member, 'nextStep' | 'providerId' | 'locationId' | 'providerPortal'>) {
  const hasProvider = Boolean(member.providerId || member.locationId);
  return {
    confirmEligibility: member.nextStep === 'confirmPlan',
    selectProvider: !hasProvider,
    updateProvider: hasProvider,
    portal: member.nextStep === 'complete' && portalLink(member.providerPortal) !== null,
  };
}

/** The Personal panel: personal, contact and insurance info, the provider and the membership. */
export function PersonalPanel({ member, editTo = paths.editSubscriber.path }: { member: Member; editTo?: string }) {
  const navigate = useNavigate();
  const [cannotEnrol, setCannotEnrol] = useState(false);
  const actions = personalActions(member);
  const subscription = accountStatus(member.subscription?.status);
  const location = member.location;

  function updateProvider() {
    if (member.subscription?.status === 'active') {
      setCannotEnrol(true);
      return;
    }
    selectedDependent.set(null);
    navigate(paths.marketplace.getHref({ selectProvider: 'true' }));
  }

  return (
    <div className={styles.panel}>
      <Card
        title="Personal information"
        action={
          <Link to={editTo} className={styles.iconLink} aria-label="Edit personal information">
            <EditIcon size={18} /> Edit
          </Link>
        }
      >
        {member.nextStep === 'confirmPlan' ? <p className={styles.pending}>{PENDING_ELIGIBILITY_TEXT}</p> : null}
        <DetailList
          columns={2}
          items={[
            { label: 'First name', value: member.firstName },
            { label: 'Last name', value: member.lastName },
            { label: 'Date of birth', value: isoToUsDate(member.dob) },
            { label: 'Gender', value: member.gender ? GENDER_LABELS[member.gender] : null },
          ]}
        />
      </Card>

      <Card title="Insurance">
        <InsuranceDetails member={member} />
      </Card>

      <Card
        title="Contact"
        action={
          <Link to={paths.editContact.path} className={styles.iconLink} aria-label="Edit contact information">
            <EditIcon size={18} /> Edit
          </Link>
        }
      >
        <DetailList
          columns={2}
          items={[
            { label: 'Email', value: member.email },
            { label: 'Mobile phone', value: displayPhone(member.phone) },
          ]}
        />
      </Card>

      <Card title="My Advanced Primary Care">
        {location ? (
          <ProviderSummary provider={{ name: location.name, logo: location.logo, address1: location.address1, city: location.city, state: location.state, zip: location.zip }} />
        ) : (
          <p className={styles.muted}>No provider selected yet.</p>
        )}
        <DetailList
          columns={2}
          items={[
            { label: 'Membership Status', value: <StatusDot label={subscription.label} tone={subscription.tone} /> },
            { label: 'Membership Valid Until', value: isoToUsDate(member.subscription?.expire) },
          ]}
        />
        <div className={styles.actions}>
          {actions.confirmEligibility ? <LinkButton to={paths.confirmPlanInformation.path}>Confirm Eligibility</LinkButton> : null}
          {actions.selectProvider ? <LinkButton to={paths.marketplace.getHref({ selectProvider: 'true' })}>Select Provider</LinkButton> : null}
          {actions.updateProvider ? (
            <Button variant="secondary" onClick={updateProvider}>
              Update My Provider
            </Button>
          ) : null}
          {actions.portal ? (
            <a className={styles.portal} href={portalLink(member.providerPortal)!} target="_blank" rel="noreferrer">
              Go to provider member portal
            </a>
          ) : null}
        </div>
      </Card>
      <CannotEnrolDialog open={cannotEnrol} location={location?.name ?? 'your provider'} onClose={() => setCannotEnrol(false)} />
    </div>
  );
}
