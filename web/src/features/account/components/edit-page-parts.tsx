/** Pieces the account edit screens share: the back link, where Cancel goes, the family member loader and the all-set dialog. */
import type { ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { ChevronLeftIcon } from '@/components/icons/icons';
import { ActionDialog } from '@/components/ui/action-dialog';
import { Alert } from '@/components/ui/alert';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { errorText } from '@/lib/api-client';
import type { FamilyMember } from '@/lib/member';
import { redirectTarget } from '@/lib/storage';
import { MESSAGES } from '@/lib/validation';
import { ELIGIBILITY_TEXTS } from '@/lib/eligibility-texts';
import type { EligibilityCheck } from '@/api/account/personal-info';
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

/** What a save tells the member about the check it made when the details named another insured person. */
export const RECHECK_TEXTS = {
  confirmed: 'We checked your new details with your health plan: your eligibility is confirmed.',
  unavailableTitle: 'Your information is saved',
  unavailable: 'We could not reach your health plan just now. We will check your new details again and email you the outcome.',
  refused: 'Your information is saved, but your health plan does not recognise these details, so your eligibility is not confirmed. Review your information and confirm your eligibility.',
  review: 'Review information',
  later: 'Fix Later',
} as const;

/** The title of a refused check, in the eligibility form's words (spec, section 8). */
function refusalTitle(check: EligibilityCheck): string {
  if (check.code === 'not_eligible_on_plan') return ELIGIBILITY_TEXTS.notEligible;
  if (check.code === 'member_exists') return ELIGIBILITY_TEXTS.accountExists;
  return ELIGIBILITY_TEXTS.couldNotConfirm;
}

/**
 * After a save: "Great! You're all set." with `children` when the details named the same
 * person (or the check at once confirmed the new ones); otherwise what the check found and the
 * way forward: Review information opens the eligibility form (`reviewTo`), Fix Later goes on.
 */
export function SavedDialog({ open, check, onDone, reviewTo = paths.confirmPlanInformation.path, children }: { open: boolean; check: EligibilityCheck | null; onDone: () => void; reviewTo?: string; children: ReactNode }) {
  const navigate = useNavigate();
  if (check && !check.eligible && check.eligibility.err.chcDown) {
    return (
      <ActionDialog open={open} title={RECHECK_TEXTS.unavailableTitle} onClose={onDone} primary={{ label: 'Okay', onClick: onDone }}>
        <p>{RECHECK_TEXTS.unavailable}</p>
      </ActionDialog>
    );
  }
  if (check && !check.eligible) {
    return (
      <ActionDialog
        open={open}
        title={refusalTitle(check)}
        onClose={onDone}
        secondary={{ label: RECHECK_TEXTS.later, onClick: onDone }}
        primary={{ label: RECHECK_TEXTS.review, onClick: () => navigate(reviewTo) }}
      >
        <p>{RECHECK_TEXTS.refused}</p>
      </ActionDialog>
    );
  }
  return (
    <AllSetDialog open={open} onDone={onDone}>
      {children}
      {check?.eligible ? <p>{RECHECK_TEXTS.confirmed}</p> : null}
    </AllSetDialog>
  );
}
