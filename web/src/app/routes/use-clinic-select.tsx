import { useState, type ReactNode } from 'react';
import { useProviderSelection } from '@/features/enrolment/components/use-provider-selection';
import type { ClinicTarget } from '@/features/enrolment/utils/select-provider';
import { EmployerNeededDialog } from '@/features/marketplace/components/employer-needed-dialog';
import { memberEmployer, useMemberInfo } from '@/lib/member';
import { storedEmployer } from '@/lib/storage';

/**
 * Select on a profile (a clinic's footer, a clinician's clinics): the employer prompt first when
 * none is chosen yet (a signed-in member's own employer counts), then the enrolment flow.
 */
export function useClinicSelect(): { select: (target: ClinicTarget) => void; busy: boolean; dialogs: ReactNode } {
  const [waitingForEmployer, setWaitingForEmployer] = useState<ClinicTarget | null>(null);
  const selection = useProviderSelection({ employerChosen: true });
  const member = useMemberInfo();

  function select(target: ClinicTarget) {
    const known = memberEmployer(member.data);
    if (storedEmployer.get() === null && known) storedEmployer.set(known);
    if (storedEmployer.get() === null) setWaitingForEmployer(target);
    else selection.select(target);
  }

  const dialogs = (
    <>
      <EmployerNeededDialog
        open={waitingForEmployer !== null}
        onClose={() => setWaitingForEmployer(null)}
        onChosen={(employer) => {
          storedEmployer.set(employer);
          const target = waitingForEmployer;
          setWaitingForEmployer(null);
          if (target) selection.select(target);
        }}
      />
      {selection.dialogs}
    </>
  );
  return { select, busy: selection.busy, dialogs };
}
