import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { EditIcon, PlusIcon } from '@/components/icons/icons';
import { Alert } from '@/components/ui/alert';
import { Button, LinkButton } from '@/components/ui/button';
import { Card, DetailList } from '@/components/ui/card';
import { Dialog } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import { StatusDot } from '@/components/ui/status-dot';
import { paths } from '@/config/paths';
import { answerText, errorText } from '@/lib/api-client';
import { accountStatus, fullName, portalLink, type FamilyMember, type Member } from '@/lib/member';
import { redirectTarget, selectedDependent } from '@/lib/storage';
import { MESSAGES } from '@/lib/validation';
import { useDeleteFamilyMember, useFamilyMembers } from '@/api/family/family-members';
import { queryKeys } from '@/api/query-keys';
import { useMemberSwitch } from './member-menu';
import styles from './account.module.css';

export const REMOVE_TEXTS = {
  question: 'Are you sure you want to remove this family member from your account?',
  warning: 'This action cannot be undone.',
} as const;

/**
 * What a subscriber can do about a family member whose eligibility is not confirmed (refused by
 * the roster, or not checked yet): revise the details and confirm again, or remove them.
 */
export function notConfirmedNote(person: Pick<FamilyMember, 'firstName' | 'lastName'>): string {
  return `We could not confirm ${fullName(person)}'s eligibility yet. Choose Confirm Eligibility to revise their details as on the insurance card and try again, or Delete to remove them from your account.`;
}

/** The Family Members panel: the list, Add a family member, and Delete for a Self subscriber. */
export function FamilyPanel({ member }: { member: Member }) {
  const queryClient = useQueryClient();
  const family = useFamilyMembers();
  const remove = useDeleteFamilyMember();
  const [removing, setRemoving] = useState<FamilyMember | null>(null);
  const [result, setResult] = useState<{ title: string; text: string; reload: boolean } | null>(null);
  const isSubscriber = member.subscriberRelation === 'Self';
  const memberSwitch = useMemberSwitch();
  const navigate = useNavigate();
  // Until the family calls are served, the family the member info carries is listed.
  const listed = family.data ?? (family.isError ? (member.family ?? []) : []);
  const others = listed.filter((person) => person.id !== member.id);

  function confirmRemove() {
    if (!removing) return;
    const person = removing;
    remove.mutate(person.id, {
      onSuccess: (answer) => {
        setRemoving(null);
        setResult({ title: 'Family member removed', text: answerText(answer, `${fullName(person)} was removed from your account.`), reload: true });
      },
      onError: (failure) => {
        setRemoving(null);
        setResult({ title: 'Oops. Something went wrong', text: errorText(failure, MESSAGES.somethingWrong), reload: false });
      },
    });
  }

  /** Confirm Eligibility: the add-family page in revise mode, which only confirms the stored member again. */
  function confirmEligibility(person: FamilyMember) {
    redirectTarget.set(paths.accountDetails.path);
    navigate(paths.addFamilyMember.path, { state: { reviseId: person.id } });
  }

  function closeResult() {
    // On success the list is loaded again (the spec reloads the page).
    if (result?.reload) {
      void queryClient.invalidateQueries({ queryKey: queryKeys.family.all });
      void queryClient.invalidateQueries({ queryKey: queryKeys.member.all });
    }
    setResult(null);
  }

  return (
    <div className={styles.panel}>
      <Card
        title="Family Members"
        action={
          isSubscriber ? (
            <LinkButton to={paths.addFamilyMember.path} size="sm" icon={<PlusIcon size={16} />} onClick={() => redirectTarget.set(paths.accountDetails.path)}>
              Add a family member
            </LinkButton>
          ) : null
        }
      >
        {family.isPending ? <Spinner label="Loading family members" /> : null}
        {memberSwitch.error ? <Alert tone="error">{memberSwitch.error}</Alert> : null}
        {family.isError ? (
          <Alert tone="info" title="Family members are not available right now">
            {errorText(family.error, MESSAGES.tryLater)}
          </Alert>
        ) : null}
        {!family.isPending && others.length === 0 ? <p className={styles.muted}>No family members on your account yet.</p> : null}
        {others.length > 0 ? (
          <ul className={styles.familyList}>
            {others.map((person) => {
              const status = accountStatus(person.subscription?.status);
              const eligibility = accountStatus(person.eligibility?.status);
              return (
                <li key={person.id} className={styles.familyItem} data-testid="family-member">
                  <div className={styles.familyTop}>
                    <span className={styles.familyName}>{fullName(person)}</span>
                    <div className={styles.actions}>
                      {isSubscriber ? (
                        <button
                          type="button"
                          className={styles.iconLink}
                          onClick={() => memberSwitch.switchTo(person.id)}
                          disabled={memberSwitch.pending}
                          aria-label={`Switch to account of ${fullName(person)}`}
                        >
                          Switch to account
                        </button>
                      ) : null}
                      {isSubscriber && person.eligibility?.status !== 'active' ? (
                        <button type="button" className={styles.iconLink} onClick={() => confirmEligibility(person)} aria-label={`Confirm eligibility for ${fullName(person)}`}>
                          Confirm Eligibility
                        </button>
                      ) : null}
                      <Link to={paths.editDependent.getHref(person.id)} className={styles.iconLink} aria-label={`Edit ${fullName(person)}`}>
                        <EditIcon size={18} /> Edit
                      </Link>
                      {isSubscriber ? (
                        <button type="button" className={`${styles.iconLink} ${styles.danger}`} onClick={() => setRemoving(person)} aria-label={`Delete ${fullName(person)}`}>
                          Delete
                        </button>
                      ) : null}
                    </div>
                  </div>
                  {isSubscriber && person.eligibility?.status !== 'active' ? (
                    <p className={styles.familyNote} data-testid="family-eligibility-note">
                      {notConfirmedNote(person)}
                    </p>
                  ) : null}
                  <DetailList
                    columns={2}
                    items={[
                      { label: 'Relationship', value: person.subscriberRelation },
                      { label: 'Plan eligibility status', value: <StatusDot label={eligibility.label} tone={eligibility.tone} /> },
                      { label: 'Membership Status', value: <StatusDot label={status.label} tone={status.tone} /> },
                      { label: 'Employer', value: person.employer?.companyName ?? person.companyName ?? member.companyName },
                      {
                        label: 'Provider',
                        value:
                          person.location?.name ??
                          person.provider?.companyName ??
                          (isSubscriber ? (
                            <Link to={paths.marketplace.getHref({ selectProvider: 'true' })} className={styles.selectProvider} onClick={() => selectedDependent.set(person.id)}>
                              Select Provider
                            </Link>
                          ) : (
                            'Needs a provider'
                          )),
                      },
                    ]}
                  />
                  {portalLink(person.providerPortal) ? (
                    <a href={portalLink(person.providerPortal)!} target="_blank" rel="noreferrer">
                      Go to provider member portal
                    </a>
                  ) : null}
                </li>
              );
            })}
          </ul>
        ) : null}
      </Card>

      <Dialog
        open={removing !== null}
        title={REMOVE_TEXTS.question}
        onClose={() => setRemoving(null)}
        footer={
          <>
            <Button variant="secondary" onClick={() => setRemoving(null)}>
              No, go back
            </Button>
            <Button variant="danger" onClick={confirmRemove} disabled={remove.isPending}>
              Remove
            </Button>
          </>
        }
      >
        <p>{REMOVE_TEXTS.warning}</p>
      </Dialog>
      <Dialog open={result !== null} title={result?.title ?? ''} onClose={closeResult} footer={<Button onClick={closeResult}>Okay</Button>}>
        <p>{result?.text}</p>
      </Dialog>
    </div>
  );
}
