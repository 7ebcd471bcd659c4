/**
 * The account group's own routes (2.21): the personal detail, the family list and detail, the
 * settings and change-password pages, and the account alert page.
 */
import { useId } from 'react';
import { Link, Navigate, useLocation, useParams, useSearchParams } from 'react-router';
import { ChevronDownIcon, ChevronLeftIcon, ChevronRightIcon, EditIcon, PlusIcon } from '@/components/icons/icons';
import { Alert } from '@/components/ui/alert';
import { LinkButton } from '@/components/ui/button';
import { Card, DetailList } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { StatusDot } from '@/components/ui/status-dot';
import { paths } from '@/config/paths';
import { errorText } from '@/lib/api-client';
import { accountStatus, fullName, GENDER_LABELS, type Member } from '@/lib/member';
import { displayPhone, isoToUsDate, MESSAGES } from '@/lib/validation';
import { useFamilyMember, useFamilyMembers } from '@/api/family/family-members';
import { WithMember } from './account-details-page';
import { RECHECK_TEXTS } from './edit-page-parts';
import { PersonalPanel } from './personal-panel';
import { EmailNotificationsCard, SEND_VERIFICATION_LABELS, SettingsPanel } from './settings-panel';
import styles from './account.module.css';

function BackLink({ to, label }: { to: string; label: string }) {
  return (
    <Link to={to} className={styles.back}>
      <ChevronLeftIcon size={18} /> {label}
    </Link>
  );
}

/** /account/personal: the member's own details, with an edit icon to /account/personal/edit. */
export function AccountPersonalPage() {
  return (
    <WithMember>
      {(member) => (
        <div className={`${styles.page} ${styles.narrow}`}>
          <BackLink to={paths.accountDetails.path} label="Account" />
          <h1>{fullName(member)}</h1>
          <PersonalPanel member={member} editTo={paths.accountPersonalEdit.path} />
        </div>
      )}
    </WithMember>
  );
}

/** /account/family-members/menu: the family by name; the last row adds a member. */
export function FamilyMembersMenuPage() {
  const family = useFamilyMembers();
  const location = useLocation();
  const message = (location.state as { message?: string } | null)?.message;
  return (
    <WithMember>
      {(member) => {
        const others = (family.data ?? (family.isError ? (member.family ?? []) : [])).filter((person) => person.id !== member.id);
        return (
          <div className={`${styles.page} ${styles.narrow}`}>
            <div className={styles.header}>
              <h1>Family Members</h1>
              <Link to={paths.familyMemberAdd.path} className={styles.iconLink} aria-label="Add a family member">
                <PlusIcon size={22} />
              </Link>
            </div>
            {message ? <Alert tone="success">{message}</Alert> : null}
            {family.isError ? (
              <Alert tone="info" title="Family members are not available right now">
                {errorText(family.error, MESSAGES.tryLater)}
              </Alert>
            ) : null}
            <ul className={styles.rows}>
              <li>
                <HolderRow member={member} />
              </li>
              {family.isPending ? (
                <li>
                  <Spinner label="Loading family members" />
                </li>
              ) : null}
              {others.map((person) => (
                <li key={person.id}>
                  <Link to={paths.familyMember.getHref(person.id)} className={styles.rowLink}>
                    <span className={styles.rowText}>
                      <strong>{fullName(person)}</strong>
                      <span>{person.subscriberRelation}</span>
                    </span>
                    <ChevronRightIcon size={18} />
                  </Link>
                </li>
              ))}
              <li>
                <Link to={paths.familyMemberAdd.path} className={styles.rowLink}>
                  <strong>Add a family member</strong>
                  <PlusIcon size={18} />
                </Link>
              </li>
            </ul>
          </div>
        );
      }}
    </WithMember>
  );
}

const HOLDER_OPEN = 'open';

/**
 * The Self row (2.21: it "opens the family-members menu"). The list is itself that menu, so the
 * row links to it with `?holder=open`, which discloses the holder's summary under the row; the
 * state lives in the address so Back closes it and a shared link opens it.
 */
function HolderRow({ member }: { member: Member }) {
  const [search] = useSearchParams();
  const open = search.get('holder') === HOLDER_OPEN;
  const summaryId = useId();
  const eligibility = accountStatus(member.eligibility?.status);
  return (
    <>
      <Link
        to={{ pathname: paths.familyMembersMenu.path, search: open ? '' : `?holder=${HOLDER_OPEN}` }}
        replace
        preventScrollReset
        className={styles.rowLink}
        aria-expanded={open}
        aria-controls={summaryId}
      >
        <span className={styles.rowText}>
          <strong>{fullName(member)}</strong>
          {member.subscriberRelation === 'Self' ? <span>Primary Account Holder</span> : null}
        </span>
        <ChevronDownIcon size={18} className={open ? styles.chevronOpen : styles.chevron} />
      </Link>
      <div id={summaryId} className={styles.holderSummary} hidden={!open}>
        <DetailList
          columns={2}
          items={[
            { label: 'Relationship', value: member.subscriberRelation },
            { label: 'Date of birth', value: isoToUsDate(member.dob) },
            { label: 'Member ID', value: member.memberId },
            { label: 'Plan eligibility status', value: <StatusDot label={eligibility.label} tone={eligibility.tone} /> },
          ]}
        />
        <Link to={paths.accountPersonal.path} className={styles.holderLink}>
          View personal details <ChevronRightIcon size={16} />
        </Link>
      </div>
    </>
  );
}

/** /account/family-members/family-member/{id}: information, contact, provider and insurance. */
export function FamilyMemberDetailPage() {
  const id = Number(useParams().id);
  const person = useFamilyMember(id);
  if (person.isPending) return <Spinner label="Loading family member" />;
  if (person.isError || !person.data) {
    return (
      <div className={`${styles.page} ${styles.narrow}`}>
        <BackLink to={paths.familyMembersMenu.path} label="Family Members" />
        <Alert tone="info" title="This family member is not available right now">
          {errorText(person.error, MESSAGES.tryLater)}
        </Alert>
      </div>
    );
  }
  const data = person.data;
  const status = accountStatus(data.subscription?.status);
  const eligibility = accountStatus(data.eligibility?.status);
  return (
    <div className={`${styles.page} ${styles.narrow}`}>
      <BackLink to={paths.familyMembersMenu.path} label="Family Members" />
      <div className={styles.header}>
        <h1>{fullName(data)}</h1>
        <Link to={paths.familyMemberEdit.getHref(id)} className={styles.iconLink} aria-label={`Edit ${fullName(data)}`}>
          <EditIcon size={18} /> Edit
        </Link>
      </div>
      <Card title="Family Member's Information">
        <DetailList
          columns={2}
          items={[
            { label: 'Relationship', value: data.subscriberRelation },
            { label: 'Date of birth', value: isoToUsDate(data.dob) },
            { label: 'Gender', value: data.gender === 'f' || data.gender === 'm' ? GENDER_LABELS[data.gender] : data.gender },
            { label: 'Home zip code', value: data.zipCode },
          ]}
        />
      </Card>
      <Card title="Contact">
        <DetailList
          columns={2}
          items={[
            { label: 'Email', value: data.email },
            { label: 'Mobile phone', value: displayPhone(data.phone) },
          ]}
        />
      </Card>
      <Card title="Provider">
        <DetailList
          columns={2}
          items={[
            { label: 'Provider', value: data.location?.name ?? data.provider?.companyName ?? 'Needs a provider' },
            { label: 'Next visit', value: data.nextVisit ? isoToUsDate(data.nextVisit) : 'Schedule Visit' },
            { label: 'Membership Status', value: <StatusDot label={status.label} tone={status.tone} /> },
            { label: 'Membership Valid Until', value: isoToUsDate(data.subscription?.expire) },
          ]}
        />
      </Card>
      <Card title="Insurance Information">
        <DetailList
          columns={2}
          items={[
            { label: 'Member ID', value: data.memberId },
            { label: 'Employer', value: data.employer?.companyName ?? data.companyName },
            { label: 'Plan eligibility status', value: <StatusDot label={eligibility.label} tone={eligibility.tone} /> },
          ]}
        />
      </Card>
    </div>
  );
}

/**
 * /account/settings and /account/settings/change-password: the mobile Settings screen (2.22),
 * change email with Send Verification, the email notifications switch (the member's `notify`
 * flag, saved through PUT /member/app/notifications) and the change password form, all saving
 * for real.
 */
export function AccountSettingsPage({ form = null }: { form?: 'email' | 'password' | null }) {
  return (
    <WithMember>
      {(member) => (
        <div className={`${styles.page} ${styles.narrow}`}>
          <BackLink to={paths.accountDetails.path} label="Account" />
          <h1>Settings</h1>
          <SettingsPanel member={member} initialForm={form} sendLabel={SEND_VERIFICATION_LABELS.mobile} />
          <EmailNotificationsCard member={member} />
        </div>
      )}
    </WithMember>
  );
}

const ACCOUNT_ALERTS = {
  add: { title: 'Family member added', text: 'Your family member was added to your account.' },
  update: { title: 'Information updated', text: 'Your changes are saved.' },
  verification: { title: 'Check your E-mail', text: 'We sent a verification link to your email. Open it to confirm your account.' },
} as const;

/** /account/alert/{type}: add, update and verification. */
export function AccountAlertPage() {
  const { type } = useParams();
  // A save whose new details were checked at once and confirmed says so.
  const checked = (useLocation().state as { checked?: boolean } | null)?.checked === true;
  if (!type || !(type in ACCOUNT_ALERTS)) return <Navigate to={paths.notFound.path} replace />;
  const alert = ACCOUNT_ALERTS[type as keyof typeof ACCOUNT_ALERTS];
  return (
    <div className={`${styles.page} ${styles.narrow}`}>
      <Card title={alert.title}>
        <p>{alert.text}</p>
        {type === 'update' && checked ? <p>{RECHECK_TEXTS.confirmed}</p> : null}
        <div className={styles.actions}>
          <LinkButton to={paths.accountDetails.path}>Back to my account</LinkButton>
          {type === 'add' ? (
            <LinkButton variant="secondary" to={paths.familyMembersMenu.path}>
              Family Members
            </LinkButton>
          ) : null}
        </div>
      </Card>
    </div>
  );
}
