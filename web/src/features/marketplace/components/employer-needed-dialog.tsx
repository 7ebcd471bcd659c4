import { Dialog } from '@/components/ui/dialog';
import type { Employer } from '../api/types';
import { EmployerSelect } from './employer-select';

interface EmployerNeededDialogProps {
  open: boolean;
  onClose: () => void;
  /** Called with the chosen employer; the caller then carries on with what was asked. */
  onChosen: (employer: Employer) => void;
}

/** Asked before searching or opening details when no employer has been chosen yet. */
export function EmployerNeededDialog({ open, onClose, onChosen }: EmployerNeededDialogProps) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Who is your employer?"
      description="Your employer decides which clinics and providers your benefit covers. Choose it first, then we'll show your results."
    >
      <EmployerSelect employer={null} onChange={onChosen} autoFocus inline />
    </Dialog>
  );
}
