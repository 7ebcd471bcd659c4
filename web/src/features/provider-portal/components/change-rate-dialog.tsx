import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { answerText, errorText, isApiError } from '@/lib/api-client';
import { queryKeys } from '@/api/query-keys';
import type { Rate, Solution } from '@/api/solutions/types';
import { useRates } from '@/api/providers/get-rates';
import { useUpdateParticipation } from '@/api/providers/update-participation';
import { participationState, PROVIDER_TEXTS } from '../utils/participation';
import { FailureDialog, NoticeDialog } from './outcome-dialogs';
import { RateStep } from './participation-dialog';
import styles from './provider-portal.module.css';

type DialogSolution = Pick<Solution, 'id' | 'name' | 'rates' | 'rate' | 'participation'>;

export const CHANGE_RATE_TEXTS = {
  button: 'Change Rate',
  confirm: 'Change Rate',
  title: (name: string) => `Change rate for ${name}`,
  intro: 'Choose a new rate (US$ per member per month, paid monthly)',
  activeNote:
    'The new rate goes to the solution facilitator for approval. Until they approve it, your participation shows Pending Approval; your current rate stays on record until then.',
  pendingNote: 'Your request is still waiting for the solution facilitator: they will be asked to approve the new rate instead.',
  doneTitle: 'Rate change sent',
} as const;

/**
 * Changes the rate of a pending or active participation (POST /dpcproviders/solutions/{id} with
 * `{rate}`): the participation dialog's rate step with the current rate preselected and marked;
 * the confirm button waits for a different rate. An active participation goes back to pending
 * (the facilitator is emailed to approve the new rate). Success closes the dialog and shows the
 * server's message; a failure opens the error modal with the server's message.
 */
export function ChangeRateDialog({ solution, open, onClose }: { solution: DialogSolution; open: boolean; onClose: () => void }) {
  const currentRateId = solution.rate?._id ?? null;
  const [rateId, setRateId] = useState<string | number | null>(currentRateId);
  const [done, setDone] = useState<string | null>(null);
  // The error modal: the server's message, and whether sending again could help (not for a refusal).
  const [failure, setFailure] = useState<{ message: string; retry: boolean } | null>(null);
  const queryClient = useQueryClient();
  const change = useUpdateParticipation();
  const ratesQuery = useRates(solution.id, open && !solution.rates);
  const rates: Rate[] = solution.rates ?? ratesQuery.data ?? [];
  const active = participationState(solution.participation?.status) === 'active';
  const changed = rateId !== null && rateId !== currentRateId;

  function close() {
    setRateId(currentRateId);
    onClose();
  }

  function submit() {
    if (!changed) return;
    setFailure(null);
    change.mutate(
      { solutionId: solution.id, rate: rateId },
      {
        // The mutation reloads the solution; its chip then says Pending Approval.
        onSuccess: (answer) => setDone(answerText(answer, 'Your new rate was sent to the solution facilitator for approval.')),
        onError: (error) => {
          const refused = isApiError(error) && error.status >= 400 && error.status < 500;
          // The participation may have changed under the page (stopped, decided): show it as it is.
          if (isApiError(error, 404) || isApiError(error, 409)) void queryClient.invalidateQueries({ queryKey: queryKeys.solutions.all });
          setFailure({ message: errorText(error, PROVIDER_TEXTS.retryTitle), retry: !refused });
        },
      },
    );
  }

  return (
    <>
      <Dialog
        open={open && done === null}
        wide
        title={CHANGE_RATE_TEXTS.title(solution.name)}
        onClose={close}
        footer={
          <>
            <Button variant="secondary" onClick={close} disabled={change.isPending}>
              Cancel
            </Button>
            <Button disabled={!changed || change.isPending} onClick={submit}>
              {change.isPending ? 'Sending…' : CHANGE_RATE_TEXTS.confirm}
            </Button>
          </>
        }
      >
        <div className={styles.dialogBody}>
          <RateStep
            solutionId={solution.id}
            rates={rates}
            loading={!solution.rates && ratesQuery.isPending}
            rateId={rateId}
            onChoose={setRateId}
            currentRateId={currentRateId}
            intro={CHANGE_RATE_TEXTS.intro}
          />
          <p className={styles.note}>{active ? CHANGE_RATE_TEXTS.activeNote : CHANGE_RATE_TEXTS.pendingNote}</p>
        </div>
      </Dialog>
      <NoticeDialog
        open={done !== null}
        title={CHANGE_RATE_TEXTS.doneTitle}
        onClose={() => {
          setDone(null);
          close();
        }}
      >
        <p>{done}</p>
      </NoticeDialog>
      <FailureDialog
        message={failure?.message ?? null}
        onDismiss={() => setFailure(null)}
        onRetry={failure?.retry ? submit : undefined}
        retrying={change.isPending}
      />
    </>
  );
}
