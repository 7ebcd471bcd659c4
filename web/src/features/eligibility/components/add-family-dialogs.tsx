import { ActionDialog } from '@/components/ui/action-dialog';
import { Dialog } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import { ELIGIBILITY_TEXTS } from '@/lib/eligibility-texts';

export const FAMILY_TEXTS = {
  /** eligible false (Fix later and Revise Information). */
  notConfirmed: "Oops. We were not able to confirm your dependent's eligibility.",
  reviewPrompt: 'Please review and update the information, or contact support.',
  /** The confirm/info call itself failed: the server's text below. */
  familyNotConfirmed: "Oops. We were not able to confirm your family member's eligibility.",
  accountExists: ELIGIBILITY_TEXTS.accountExists,
  retryTitle: 'We are having temporary issues',
  retry: 'Your information is saved. Our system will retry confirming your eligibility and notify you by email.',
  added: "Success! You've added a dependent",
  /** The account and marketplace flows: Okay and Add another dependent. */
  enrolled: 'Dependent Enrolled Successfully',
  /** The eligibility flow (2.5): I'm all set and Add another. */
  familyEnrolled: 'Family member enrolled',
  planConfirmed: 'Dependent Plan Information Confirmed',
  pediatric: 'This clinic does not offer pediatric services',
  findAnother: 'Please find another DPC clinic for this dependent',
  noDependent: 'No Dependent ID was found',
  providerNotFound: 'Provider not found',
} as const;

/**
 * The texts that name the family member's relation: the spec's say "dependent", and a spouse is
 * told "spouse" instead.
 */
export function familyTexts(relation: string | null | undefined) {
  if (relation !== 'Spouse') {
    return { notConfirmed: FAMILY_TEXTS.notConfirmed, added: FAMILY_TEXTS.added, enrolled: FAMILY_TEXTS.enrolled, planConfirmed: FAMILY_TEXTS.planConfirmed, addAnother: 'Add another dependent' };
  }
  return {
    notConfirmed: "Oops. We were not able to confirm your spouse's eligibility.",
    added: "Success! You've added your spouse",
    enrolled: 'Spouse Enrolled Successfully',
    planConfirmed: 'Spouse Plan Information Confirmed',
    addAnother: 'Add another family member',
  };
}

export type FamilyDialog =
  | 'checking'
  | 'exists'
  | 'not-confirmed'
  | 'retry'
  | 'confirm-error'
  | 'added'
  | 'added-no-provider'
  | 'pediatric'
  | 'enrolled'
  | 'plan-confirmed'
  | 'enrol-error'
  | null;

interface AddFamilyDialogsProps {
  dialog: FamilyDialog;
  onClose: () => void;
  /** The exists dialog's title: the server's refusal, or 'Oops. Something went wrong'. */
  existsTitle: string;
  /** The server's text for the dialog open. */
  message: string;
  /** The family member's first name, or null before one is typed. */
  firstName: string | null;
  /** Spouse or Dependent, as the form says (the dialogs name the relation). */
  relation: string | null;
  /** The subscriber's clinic. */
  providerName: string;
  /** The flow started on /confirm-plan-information: 'I'm all set' and 'Add another'. */
  startedFromEligibility: boolean;
  /** Revise mode for a family member with no provider yet. */
  withoutProvider: boolean;
  enrolling: boolean;
  onAddAnother: () => void;
  onFinish: () => void;
  onFindProvider: () => void;
  onEnrolSameProvider: () => void;
}

/** The add-family page's waiting and outcome dialogs, one open at a time. */
export function AddFamilyDialogs(props: AddFamilyDialogsProps) {
  const { dialog, onClose, message, existsTitle, firstName, startedFromEligibility, onAddAnother, onFinish, onFindProvider } = props;
  const okay = { label: 'Okay', onClick: onClose };
  const texts = familyTexts(props.relation);
  const addAnotherDependent = { label: texts.addAnother, onClick: onAddAnother };
  const finishWithOkay = { label: 'Okay', onClick: onFinish };
  const selectProvider = { label: 'Select a provider', onClick: onFindProvider };
  const name = firstName ?? 'your family member';
  const nameAtStart = firstName ?? 'Your family member';

  return (
    <>
      <Dialog open={dialog === 'checking'} title="Checking eligibility" onClose={() => {}}>
        <Spinner label="Checking your family member's eligibility" />
      </Dialog>
      <ActionDialog open={dialog === 'exists'} title={existsTitle} onClose={onClose} secondary={addAnotherDependent} primary={okay}>
        {message && message !== existsTitle ? <p>{message}</p> : null}
      </ActionDialog>
      <ActionDialog open={dialog === 'not-confirmed'} title={texts.notConfirmed} onClose={onClose} secondary={{ label: 'Fix later', onClick: onFinish }} primary={{ label: 'Revise Information', onClick: onClose }}>
        {message ? <p>{message}</p> : null}
        <p>{FAMILY_TEXTS.reviewPrompt}</p>
      </ActionDialog>
      <ActionDialog open={dialog === 'retry'} title={FAMILY_TEXTS.retryTitle} onClose={onFinish} primary={finishWithOkay}>
        <p>{FAMILY_TEXTS.retry}</p>
      </ActionDialog>
      <ActionDialog open={dialog === 'confirm-error'} title={FAMILY_TEXTS.familyNotConfirmed} onClose={onClose} primary={okay}>
        <p>{message}</p>
      </ActionDialog>
      <ActionDialog
        open={dialog === 'added'}
        title={texts.added}
        onClose={onFinish}
        secondary={{ label: 'Find another Provider', onClick: onFindProvider }}
        primary={{ label: 'Enroll in the same DPC as main account', onClick: props.onEnrolSameProvider, disabled: props.enrolling }}
      >
        <p>Choose the provider for {name}.</p>
      </ActionDialog>
      <ActionDialog open={dialog === 'added-no-provider'} title={texts.added} onClose={onFinish} primary={selectProvider}>
        <p>Now select a provider for {name}.</p>
      </ActionDialog>
      <ActionDialog open={dialog === 'pediatric'} title="Pediatric provider needed" onClose={onFinish} primary={selectProvider}>
        <p>
          {FAMILY_TEXTS.pediatric}. {FAMILY_TEXTS.findAnother}.
        </p>
      </ActionDialog>
      <ActionDialog
        open={dialog === 'enrolled'}
        title={startedFromEligibility ? FAMILY_TEXTS.familyEnrolled : texts.enrolled}
        onClose={onFinish}
        secondary={{ label: startedFromEligibility ? 'Add another' : texts.addAnother, onClick: onAddAnother }}
        primary={{ label: startedFromEligibility ? "I'm all set" : 'Okay', onClick: onFinish }}
      >
        <p>
          {nameAtStart} is enrolled with {props.providerName}.
        </p>
      </ActionDialog>
      <ActionDialog open={dialog === 'plan-confirmed'} title={texts.planConfirmed} onClose={onFinish} secondary={addAnotherDependent} primary={finishWithOkay}>
        <p>
          {nameAtStart}&apos;s eligibility is confirmed.
          {props.withoutProvider ? ' You can select a provider for them from Family Members.' : ''}
        </p>
      </ActionDialog>
      <ActionDialog open={dialog === 'enrol-error'} title={`Something went wrong while selecting for ${name}'s provider.`} onClose={onFinish} primary={finishWithOkay}>
        <p>{message}</p>
      </ActionDialog>
    </>
  );
}
