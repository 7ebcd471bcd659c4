/** Pieces the account edit screens share: the back link, where Cancel goes, the family member loader and the all-set dialog. */
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ChevronLeftIcon } from '@/components/icons/icons';
import { ActionDialog } from '@/components/ui/action-dialog';
import { Alert } from '@/components/ui/alert';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { errorText } from '@/lib/api-client';
import type { FamilyMember } from '@/lib/member';
import { redirectTarget } from '@/lib/storage';
import { MESSAGES } from '@/lib/validation';
import { useFamilyMember } from '@/api/family/family-members';
import styles from './account.module.css';

export const ALL_SET_TEXT = "Great! You're all set.";

export function BackLink({ to, label = 'Back' }: { to: string; label?: string }) {
  return (
    <Link to={to} className={styles.back}>
      <ChevronLeftIcon size={18} /> {label}
    </Link>
  );
}

/** Where Cancel goes on the edit screens: the stored redirect (home or account details). */
export function cancelTarget(): string {
  return redirectTarget.get() === paths.home.path ? paths.home.path : paths.accountDetails.path;
}

/** Loads a family member by route id. */
export function WithFamilyMember({ id, children }: { id: number; children: (person: FamilyMember) => ReactNode }) {
  const person = useFamilyMember(id);
  if (person.isPending) return <Spinner label="Loading family member" />;
  if (person.isError || !person.data) {
    return (
      <div className={`${styles.page} ${styles.narrow}`}>
        <BackLink to={paths.accountDetails.path} />
        <Alert tone="info" title="This family member is not available right now">
          {errorText(person.error, MESSAGES.tryLater)}
        </Alert>
      </div>
    );
  }
  return <>{children(person.data)}</>;
}

/** "Great! You're all set." after a save; Okay (or closing) goes to `onDone`. */
export function AllSetDialog({ open, onDone, children }: { open: boolean; onDone: () => void; children: ReactNode }) {
  return (
    <ActionDialog open={open} title={ALL_SET_TEXT} onClose={onDone} primary={{ label: 'Okay', onClick: onDone }}>
      {children}
    </ActionDialog>
  );
}
