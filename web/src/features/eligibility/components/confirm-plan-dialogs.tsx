import { ActionDialog } from '@/components/ui/action-dialog';
import { Dialog } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { fullName, type Member } from '@/lib/member';
import { signOut } from '@/lib/session';
import { addFamilyChoice } from '@/lib/storage';
import { useSendVerification } from '@/api/auth/send-verification';
import type { ConfirmInfoResponse } from '@/api/eligibility/types';
import { ELIGIBILITY_TEXTS } from '@/lib/eligibility-texts';
import styles from './eligibility.module.css';

export type ConfirmPlanDialogName =
  | 'verify-email'
  | 'checking'
  | 'subscriber'
  | 'add-family'
  | 'connect'
  | 'enrolled'
  | 'could-not-confirm'
  | 'not-eligible'
  | 'system-down'
  | 'retry'
  | 'cancel'
  | 'account-exists'
  | 'no-data'
  | 'select-provider'
  | 'plans'
  | 'plan-id'
  | 'error';

interface ConfirmPlanDialogsProps {
  dialog: ConfirmPlanDialogName | null;
  openDialog: (dialog: ConfirmPlanDialogName | null) => void;
  member: Member | null;
  /** The provider's name as the enrolled dialogs say it. */
  locationLabel: string;
  /** The error dialog's text. */
  message: string;
  confirmed: ConfirmInfoResponse | null;
  /** The provider's own portal (post-enrolment), opened by Connect me now. */
  redirect: string | null;
  /** A Self subscriber with family is asked about adding them. */
  selfSubscriber: boolean;
  /** Where Fix Later, Okay and Yes, cancel go (the stored redirect, else the marketplace). */
  target: string;
  finish: (to: string) => void;
  reviewInformation: () => void;
  onStay: () => void;
  onConfirmLeave: () => void;
}

/** The eligibility page's waiting, outcome and cancel dialogs, one open at a time. */
export function ConfirmPlanDialogs({ dialog, openDialog, member, locationLabel, message, confirmed, redirect, selfSubscriber, target, finish, reviewInformation, onStay, onConfirmLeave }: ConfirmPlanDialogsProps) {
  const sendVerification = useSendVerification();
  const close = () => openDialog(null);
  const fixLater = { label: 'Fix Later', onClick: () => finish(target) };
  const review = { label: 'Review information', onClick: reviewInformation };
  const okayToTarget = { label: 'Okay', onClick: () => finish(target) };
  const login = { label: 'Login', onClick: signOut };
  const notEnrolled = confirmed?.notEnrolled ?? null;

  return (
    <>
      <Dialog open={dialog === 'checking'} title="Checking eligibility" onClose={() => {}}>
        <div className={styles.dialogBody}>
          <Spinner label="Checking your eligibility" />
          <p className={styles.center}>We are checking your information with your health plan. This takes a few seconds.</p>
        </div>
      </Dialog>

      <ActionDialog
        open={dialog === 'verify-email'}
        title="Verify your email"
        onClose={close}
        secondary={{
          label: sendVerification.isSuccess ? 'Link sent' : 'Resend link',
          disabled: sendVerification.isPending || sendVerification.isSuccess,
          onClick: () => member && sendVerification.mutate(member.email),
        }}
        primary={{ label: 'Continue', onClick: close }}
      >
        <p>
          We sent a link to <strong>{member?.email}</strong>. Open it to confirm your email and set your password. You can confirm your
          eligibility now.
        </p>
      </ActionDialog>

      <ActionDialog
        open={dialog === 'add-family'}
        title="Eligibility confirmed!"
        onClose={() => {}}
        secondary={{
          label: <>No I&apos;m all set</>,
          onClick: () => {
            addFamilyChoice.set('no');
            finish(paths.membership.path);
          },
        }}
        primary={{
          label: 'Yes',
          onClick: () => {
            addFamilyChoice.set('yes');
            finish(paths.addFamilyMember.path);
          },
        }}
      >
        <p>Would you like to add your family members to your membership?</p>
      </ActionDialog>

      <ActionDialog
        open={dialog === 'connect'}
        title={`You're enrolled with ${locationLabel}`}
        onClose={() => {}}
        primary={{
          label: 'Connect me now',
          onClick: () => {
            if (redirect) window.open(redirect, '_blank', 'noopener');
            if (confirmed?.hasFamily && selfSubscriber) openDialog('add-family');
            else finish(paths.membership.path);
          },
        }}
      >
        <p>{locationLabel} has its own member portal. Connect to finish setting up your membership with them.</p>
      </ActionDialog>

      <ActionDialog open={dialog === 'enrolled'} title={`You're enrolled with ${locationLabel}`} onClose={() => finish(paths.membership.path)} primary={{ label: 'Okay', onClick: () => finish(paths.membership.path) }}>
        <p>Your eligibility is confirmed. Your membership starts with your first visit.</p>
      </ActionDialog>

      <ActionDialog
        open={dialog === 'select-provider'}
        title="Eligibility confirmed!"
        onClose={() => {}}
        secondary={
          notEnrolled
            ? { label: 'Join its waitlist', onClick: () => finish(paths.clinicProfile.getHref(notEnrolled.location.providerId, notEnrolled.location.id)) }
            : undefined
        }
        primary={{
          label: 'Select my provider now',
          onClick: () =>
            finish(paths.marketplace.getHref({ company: confirmed?.filterMarket?.company ?? undefined, location: confirmed?.filterMarket?.location ?? undefined, selectProvider: 'true' })),
        }}
      >
        <p>{notEnrolled ? notEnrolled.message : 'Now choose the clinic where you will get your care.'}</p>
      </ActionDialog>

      <ActionDialog open={dialog === 'could-not-confirm'} title={ELIGIBILITY_TEXTS.couldNotConfirm} onClose={reviewInformation} secondary={fixLater} primary={review}>
        <p>Please check that your details match your insurance card, or fix them later from your account.</p>
      </ActionDialog>

      <ActionDialog open={dialog === 'not-eligible'} title={ELIGIBILITY_TEXTS.notEligible} onClose={reviewInformation} secondary={fixLater} primary={review}>
        <p>Your health plan lists you under another plan. Check the plan you selected, or contact your employer&apos;s benefits team.</p>
      </ActionDialog>

      <ActionDialog open={dialog === 'system-down'} title={ELIGIBILITY_TEXTS.systemDown} onClose={() => finish(target)} primary={okayToTarget}>
        <p>Your account is created and your information is saved. Please log in later to confirm your eligibility.</p>
      </ActionDialog>

      <ActionDialog open={dialog === 'retry'} title="We are having temporary issues" onClose={() => finish(target)} primary={okayToTarget}>
        <p>Your information is saved. Our system will retry confirming your eligibility and notify you by email.</p>
      </ActionDialog>

      <ActionDialog open={dialog === 'account-exists'} title={ELIGIBILITY_TEXTS.accountExists} onClose={reviewInformation} secondary={review} primary={login}>
        <p>Log in with the account that already holds this membership, or review the information you entered.</p>
      </ActionDialog>

      <ActionDialog open={dialog === 'no-data'} title={ELIGIBILITY_TEXTS.noData} onClose={signOut} primary={login}>
        <p>We could not find your registration. Please log in again.</p>
      </ActionDialog>

      <ActionDialog open={dialog === 'error'} title="Oops. Something went wrong" onClose={close} primary={{ label: 'OK', onClick: close }}>
        <p>{message}</p>
      </ActionDialog>

      <ActionDialog
        open={dialog === 'cancel'}
        title="Are you sure you want to cancel?"
        onClose={onStay}
        secondary={{ label: 'No, stay', onClick: onStay }}
        primary={{ label: 'Yes, cancel', onClick: onConfirmLeave }}
      >
        <p>Your eligibility is not confirmed yet{member ? `, ${fullName(member)}` : ''}. You can come back and confirm it later.</p>
      </ActionDialog>
    </>
  );
}
