/** The dialogs of selecting a clinic (loaded the first time one opens). */
import { Button } from '@/components/ui/button';
import { CannotEnrolDialog } from '@/components/ui/cannot-enrol-dialog';
import { Dialog } from '@/components/ui/dialog';
import type { MemberState } from '@/lib/member-state';
import { clinicWithLocation, ENROLMENT_TEXTS, pendingMembershipText, type ClinicTarget, type EnrolledDialog, type RefusalDialog } from '../utils/select-provider';
import styles from './enrolment.module.css';

/** The change-provider confirmation remembers what to send once the member says yes. */
export type ConfirmChange = { kind: 'confirm-change'; currentClinic: string; target: ClinicTarget; actedOn: MemberState };

/** The error modal with Retry; what Retry repeats is kept by the flow. */
export type RetryDialog = { kind: 'retry' };

/** Asked after Connect me now when the subscriber has family. */
export type AddFamilyDialog = { kind: 'add-family' };

export type FlowDialog = Exclude<RefusalDialog, { kind: 'confirm-change' }> | ConfirmChange | EnrolledDialog | RetryDialog | AddFamilyDialog;

/**
 * Where a finished enrolment goes: the membership card, the account details (a family member),
 * the add-family question (after Connect me now, for a subscriber with family), and that
 * question's two answers: add family (Yes) or the membership card (No I'm all set).
 */
export type FinishTarget = 'membership' | 'account' | 'add-family-question' | 'add-family' | 'membership-all-set';

export const ALL_SET_TITLE = "Great! You're all set.";
export const PROVIDER_CHANGED_TITLE = 'Provider changed';
export const ADD_FAMILY_TEXTS = {
  title: 'Add family members',
  question: 'Would you like to add your family members to your membership?',
  no: "No I'm all set",
  yes: 'Yes',
} as const;

interface EnrolmentDialogsProps {
  dialog: FlowDialog;
  busy: boolean;
  onClose: () => void;
  onConfirmChange: (dialog: ConfirmChange) => void;
  /** Retry in the error modal: repeats the call that failed. */
  onRetry: () => void;
  /** Closes a successful enrolment (see {@link FinishTarget}). */
  onFinish: (to: FinishTarget) => void;
}

export default function EnrolmentDialogs({ dialog, busy, onClose, onConfirmChange, onRetry, onFinish }: EnrolmentDialogsProps) {
  const okay = <Button onClick={onClose}>Okay</Button>;
  switch (dialog.kind) {
    case 'retry':
      return (
        <Dialog
          open
          title={ENROLMENT_TEXTS.retry}
          onClose={onClose}
          footer={
            <>
              <Button variant="secondary" onClick={onClose}>
                Cancel
              </Button>
              <Button onClick={onRetry} disabled={busy}>
                Retry
              </Button>
            </>
          }
        >
          <p>We could not reach the server, or it could not finish your request.</p>
        </Dialog>
      );
    case 'add-family':
      return (
        <Dialog
          open
          title={ADD_FAMILY_TEXTS.title}
          onClose={() => onFinish('membership-all-set')}
          footer={
            <>
              <Button variant="secondary" onClick={() => onFinish('membership-all-set')}>
                {ADD_FAMILY_TEXTS.no}
              </Button>
              <Button onClick={() => onFinish('add-family')}>{ADD_FAMILY_TEXTS.yes}</Button>
            </>
          }
        >
          <p>{ADD_FAMILY_TEXTS.question}</p>
        </Dialog>
      );
    case 'non-provider':
      return (
        <Dialog open title={dialog.message} onClose={onClose} footer={okay}>
          <p>Only a clinic location can be your provider. Open the clinician&apos;s profile to see the clinics where they work.</p>
        </Dialog>
      );
    case 'cannot-enrol':
      return <CannotEnrolDialog open location="" title={dialog.title} supportEmail={dialog.supportEmail} onClose={onClose} />;
    case 'confirm-change':
      return (
        <Dialog
          open
          title="Change provider?"
          onClose={onClose}
          footer={
            <>
              <Button variant="secondary" onClick={onClose}>
                No, go back
              </Button>
              <Button onClick={() => onConfirmChange(dialog)} disabled={busy}>
                Yes, change provider
              </Button>
            </>
          }
        >
          <p>
            {dialog.actedOn.dependentId !== null ? `${dialog.actedOn.firstName || dialog.actedOn.name} has` : 'You have'} a pending membership with{' '}
            <strong>{dialog.currentClinic}</strong>. Do you want to change to <strong>{clinicWithLocation(dialog.target.name, dialog.target.locationName)}</strong>?
          </p>
        </Dialog>
      );
    case 'employer-inactive':
      return (
        <Dialog open title={dialog.message} onClose={onClose} footer={okay}>
          <p>Your employer is not participating yet. A representative will contact your company about the benefit.</p>
        </Dialog>
      );
    case 'pediatric':
      return (
        <Dialog open title={dialog.title} onClose={onClose} footer={okay}>
          <p>{dialog.message}</p>
        </Dialog>
      );
    case 'enrol-error':
      return (
        <Dialog open title={ENROLMENT_TEXTS.general} onClose={onClose} footer={okay}>
          <p>{dialog.message}</p>
          {dialog.hint ? <p>{dialog.hint}</p> : null}
        </Dialog>
      );
    case 'dependent-error':
      return (
        <Dialog open title={dialog.title} onClose={onClose} footer={okay}>
          <p>{dialog.message}</p>
        </Dialog>
      );
    case 'connect': {
      const to: FinishTarget = dialog.dependent ? 'account' : dialog.addFamily ? 'add-family-question' : 'membership';
      return (
        <Dialog
          open
          title={dialog.changed ? pendingMembershipText(dialog.clinic) : `You're enrolled with ${dialog.clinic}`}
          onClose={() => onFinish(to)}
          footer={
            <Button
              onClick={() => {
                window.open(dialog.redirect, '_blank', 'noopener');
                onFinish(to);
              }}
            >
              Connect me now
            </Button>
          }
        >
          <p>{dialog.clinic} has its own member portal. Connect to finish setting up the membership with them.</p>
        </Dialog>
      );
    }
    case 'subscriber-all-set':
      return (
        <Dialog
          open
          title={dialog.changed ? PROVIDER_CHANGED_TITLE : ALL_SET_TITLE}
          onClose={() => onFinish('membership')}
          footer={<Button onClick={() => onFinish('membership')}>View my membership</Button>}
        >
          <div className={styles.body}>
            <p>{dialog.changed ? pendingMembershipText(dialog.clinic) : `You have been enrolled with ${dialog.clinic}.`}</p>
            <p>Your membership starts with your first visit: the clinic will reach out to schedule it.</p>
          </div>
        </Dialog>
      );
    case 'dependent-all-set':
      return (
        <Dialog
          open
          title={dialog.changed ? PROVIDER_CHANGED_TITLE : ALL_SET_TITLE}
          onClose={() => onFinish('account')}
          footer={<Button onClick={() => onFinish('account')}>Okay</Button>}
        >
          <p>
            {dialog.changed ? `${dialog.name} now has a pending membership with ${dialog.clinic}.` : `${dialog.name} has been enrolled with ${dialog.clinic}.`}
          </p>
        </Dialog>
      );
  }
}
