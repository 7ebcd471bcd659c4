import { useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import type { Employer } from '@/api/market/types';
import { EmployerSelect } from './employer-select';

/** The employer dialogs' texts ('Perfect! ... Find My Provider' is the spec's employer-verified dialog). */
export const EMPLOYER_DIALOG_TEXTS = {
  neededTitle: 'Who is your employer?',
  neededText: "Your employer decides which clinics and providers your benefit covers. Choose it first, then we'll show your results.",
  confirmTitle: 'Employer Confirmation',
  confirmText: 'Your account does not name your employer yet. Confirm who you work for, so we can show the clinics and providers your benefit covers.',
  confirm: 'Confirm',
  verifiedTitle: 'Perfect!',
  findMyProvider: 'Find My Provider',
} as const;

/** 'Perfect! ...': the employer offers the benefit. */
export function employerVerifiedText(companyName: string): string {
  return `${companyName} is participating and will pay up to 100% of the benefit. Let's find your provider.`;
}

interface EmployerDialogProps {
  open: boolean;
  /** Closed without a (confirmed) choice. */
  onClose: () => void;
  /**
   * Called with the chosen employer once the member is done: after Find My Provider for an
   * employer that offers the benefit, at once for one that does not (the banner says so).
   */
  onChosen: (employer: Employer) => void;
}

type Step = { kind: 'choose' } | { kind: 'verified'; employer: Employer };

function useSteps(open: boolean) {
  const [step, setStep] = useState<Step>({ kind: 'choose' });
  // Back to the first step once closed, so the next opening starts there.
  useEffect(() => {
    if (!open) setStep({ kind: 'choose' });
  }, [open]);
  return [step, setStep] as const;
}

/** The employer-verified step: 'Perfect! ...' with Find My Provider, which carries on. */
function VerifiedDialog({ employer, onClose, onChosen }: { employer: Employer; onClose: () => void; onChosen: (employer: Employer) => void }) {
  return (
    <Dialog
      open
      title={EMPLOYER_DIALOG_TEXTS.verifiedTitle}
      onClose={onClose}
      footer={<Button onClick={() => onChosen(employer)}>{EMPLOYER_DIALOG_TEXTS.findMyProvider}</Button>}
    >
      <p>{employerVerifiedText(employer.companyName)}</p>
    </Dialog>
  );
}

/**
 * Asked before searching or opening details when no employer has been chosen yet; an employer
 * that offers the benefit is then confirmed with 'Perfect! ... Find My Provider'.
 */
export function EmployerNeededDialog({ open, onClose, onChosen }: EmployerDialogProps) {
  const [step, setStep] = useSteps(open);
  if (open && step.kind === 'verified') {
    // Closing the verified step keeps the employer: it was chosen; only the next step waits.
    return <VerifiedDialog employer={step.employer} onClose={() => onChosen(step.employer)} onChosen={onChosen} />;
  }
  return (
    <Dialog open={open} onClose={onClose} title={EMPLOYER_DIALOG_TEXTS.neededTitle} description={EMPLOYER_DIALOG_TEXTS.neededText}>
      <EmployerSelect
        employer={null}
        onChange={(employer) => (employer.status === 'active' ? setStep({ kind: 'verified', employer }) : onChosen(employer))}
        autoFocus
        inline
      />
    </Dialog>
  );
}

/**
 * The Employer Confirmation dialog: a signed-in member whose account names no employer confirms
 * theirs (the marketplace's current choice is offered), then 'Perfect! ... Find My Provider' when
 * it offers the benefit. The choice is the marketplace's (kept in the browser): no server call
 * stores an employer for a member who has not confirmed eligibility yet.
 */
export function EmployerConfirmationDialog({ open, onClose, onChosen, current }: EmployerDialogProps & { current: Employer | null }) {
  const [step, setStep] = useSteps(open);
  const [choice, setChoice] = useState<Employer | null>(current);
  useEffect(() => {
    if (open) setChoice(current);
  }, [open, current]);
  if (open && step.kind === 'verified') {
    return <VerifiedDialog employer={step.employer} onClose={() => onChosen(step.employer)} onChosen={onChosen} />;
  }
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={EMPLOYER_DIALOG_TEXTS.confirmTitle}
      description={EMPLOYER_DIALOG_TEXTS.confirmText}
      footer={
        <Button
          disabled={choice === null}
          onClick={() => {
            if (!choice) return;
            if (choice.status === 'active') setStep({ kind: 'verified', employer: choice });
            else onChosen(choice);
          }}
        >
          {EMPLOYER_DIALOG_TEXTS.confirm}
        </Button>
      }
    >
      <EmployerSelect employer={choice} onChange={setChoice} autoFocus inline />
    </Dialog>
  );
}
