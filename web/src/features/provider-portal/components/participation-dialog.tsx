import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { TextField } from '@/components/ui/field';
import { Spinner } from '@/components/ui/spinner';
import { errorText, isApiError } from '@/lib/api-client';
import { queryKeys } from '@/api/query-keys';
import { formatMoney } from '@/lib/format';
import { emailError, normaliseEmail } from '@/lib/validation';
import type { Rate, Solution } from '@/api/solutions/types';
import { useRateCalculation } from '@/api/providers/calculate-rate';
import { useRates } from '@/api/providers/get-rates';
import { useParticipate, type ParticipateRequest } from '@/api/providers/participate';
import { useProviderMe } from '@/api/providers/get-provider-me';
import { PROVIDER_TEXTS } from '../utils/participation';
import { ContractViewer } from './contract-viewer';
import { FailureDialog, NoticeDialog } from './outcome-dialogs';
import { CalculationTable } from './rate-figures';
import styles from './provider-portal.module.css';

type DialogSolution = Pick<Solution, 'id' | 'name' | 'contract' | 'contractVersion' | 'rates'>;

export const PENDING_DIALOG_TITLE = 'Pending Approval';

/**
 * The two-step participation dialog (spec 4): step 1 chooses a rate, showing its calculation;
 * step 2 shows the contract PDF (drawn in the dialog), the e-mail the facilitator's decision goes to
 * (the signed-in account's until changed) and the agree box. Success shows the pending-approval dialog;
 * a failure resets the dialog to step 1 and opens the error modal with the server's message,
 * whose Retry sends the same request again. A conflict (409: the contract changed, or the
 * organisation already participates) is not sent again: the solution reloads, and Retry starts
 * the steps over with the current contract (or closes the dialog when a participation exists).
 */
export function ParticipationDialog({ solution, open, onClose }: { solution: DialogSolution; open: boolean; onClose: () => void }) {
  const [step, setStep] = useState<1 | 2>(1);
  const [rateId, setRateId] = useState<string | number | null>(null);
  const [agreed, setAgreed] = useState(false);
  // Null until the provider edits it: the signed-in account's address.
  const [editedEmail, setEditedEmail] = useState<string | null>(null);
  const [emailChecked, setEmailChecked] = useState(false);
  const [sentTo, setSentTo] = useState('');
  const [failure, setFailure] = useState<{ message: string; request: ParticipateRequest; conflict: string | null } | null>(null);
  const [pendingOpen, setPendingOpen] = useState(false);
  // The SHA-256 of the contract bytes the dialog showed; the solution's contractVersion until then.
  const [shownVersion, setShownVersion] = useState<string | null>(null);
  const participate = useParticipate();
  const queryClient = useQueryClient();
  const ratesQuery = useRates(solution.id, open && !solution.rates);
  const rates: Rate[] = solution.rates ?? ratesQuery.data ?? [];
  const me = useProviderMe(open);
  const contactEmail = editedEmail ?? me.data?.email ?? '';
  const contactEmailError = emailChecked ? emailError(contactEmail) : null;

  function reset() {
    setStep(1);
    setShownVersion(null);
    setRateId(null);
    setAgreed(false);
    setEditedEmail(null);
    setEmailChecked(false);
  }

  function close() {
    reset();
    onClose();
  }

  function send(request: ParticipateRequest) {
    participate.mutate(request, {
      onSuccess: () => {
        setSentTo(request.contactEmail ?? '');
        reset();
        setFailure(null);
        setPendingOpen(true);
      },
      onError: (error) => {
        reset();
        const conflict = isApiError(error, 409) ? error.code : null;
        // A conflict means the solution changed under the dialog: its contract or its participation.
        if (conflict) void queryClient.invalidateQueries({ queryKey: queryKeys.solutions.all });
        setFailure({ message: errorText(error, PROVIDER_TEXTS.retryTitle), request, conflict });
      },
    });
  }

  function retry() {
    if (!failure) return;
    if (!failure.conflict) return send(failure.request);
    setFailure(null);
    if (failure.conflict === 'already_participating') close();
  }

  function submit() {
    if (rateId === null || !agreed) return;
    setEmailChecked(true);
    if (emailError(contactEmail)) return;
    send({ solutionId: solution.id, rate: rateId, contracted: true, contractVersion: shownVersion ?? solution.contractVersion, contactEmail: normaliseEmail(contactEmail) });
  }

  const footer =
    step === 1 ? (
      <>
        <Button variant="secondary" onClick={close}>
          Cancel
        </Button>
        <Button disabled={rateId === null} onClick={() => setStep(2)}>
          Next
        </Button>
      </>
    ) : (
      <>
        <Button variant="secondary" onClick={() => setStep(1)} disabled={participate.isPending}>
          Back
        </Button>
        <Button disabled={!agreed || participate.isPending} onClick={submit}>
          {participate.isPending ? 'Sending…' : PROVIDER_TEXTS.participate}
        </Button>
      </>
    );

  return (
    <>
      <Dialog open={open && !pendingOpen} wide title={`Participate in ${solution.name}`} onClose={close} footer={footer}>
        <div className={styles.dialogBody}>
          {step === 1 ? (
            <RateStep solutionId={solution.id} rates={rates} loading={!solution.rates && ratesQuery.isPending} rateId={rateId} onChoose={setRateId} />
          ) : (
            <ContractStep
              solution={solution}
              agreed={agreed}
              onAgree={setAgreed}
              onVersion={setShownVersion}
              contactEmail={contactEmail}
              contactEmailError={contactEmailError}
              onContactEmail={setEditedEmail}
              onContactEmailDone={() => {
                setEditedEmail(normaliseEmail(contactEmail));
                setEmailChecked(true);
              }}
            />
          )}
        </div>
      </Dialog>
      <NoticeDialog
        open={pendingOpen}
        title={PENDING_DIALOG_TITLE}
        onClose={() => {
          setPendingOpen(false);
          onClose();
        }}
      >
        <p>
          Your request to participate in <strong>{solution.name}</strong> was sent to the solution facilitator for approval. We will email their decision
          to <strong>{sentTo}</strong>.
        </p>
      </NoticeDialog>
      <FailureDialog message={failure?.message ?? null} onDismiss={() => setFailure(null)} onRetry={retry} retrying={participate.isPending} />
    </>
  );
}

/**
 * Step 1 of the participation dialog, also the change-rate dialog's body: the rates as radios and
 * the chosen one's calculation. `currentRateId` marks the participation's rate "current".
 */
export function RateStep({
  solutionId,
  rates,
  loading,
  rateId,
  onChoose,
  currentRateId = null,
  intro = 'Step 1 of 2: choose a rate (US$ per member per month, paid monthly)',
}: {
  solutionId: number;
  rates: Rate[];
  loading: boolean;
  rateId: string | number | null;
  onChoose: (id: string | number) => void;
  currentRateId?: string | number | null;
  intro?: string;
}) {
  return (
    <>
      <p className={styles.steps}>{intro}</p>
      {loading ? <Spinner label="Loading rates" /> : null}
      <fieldset className={styles.fieldset}>
        <legend className="visually-hidden">Rate</legend>
        <ul className={styles.rateList}>
          {rates.map((rate) => {
            const chosen = rate._id === rateId;
            return (
              <li key={String(rate._id)} className={styles.rateOption}>
                <label>
                  <input type="radio" name="rate" value={String(rate._id)} checked={chosen} onChange={() => onChoose(rate._id)} />
                  <span className={styles.rateName}>
                    <span>{rate.group}</span>
                    {rate._id === currentRateId ? <span className={styles.currentTag}>current</span> : null}
                  </span>
                  <span className={styles.rateAmount}>{formatMoney(rate.baseRate)} PMPM</span>
                </label>
                {chosen ? <ChosenRateCalculation solutionId={solutionId} rateId={rate._id} /> : null}
              </li>
            );
          })}
        </ul>
      </fieldset>
      {rateId === null ? <p className={styles.hint}>{PROVIDER_TEXTS.selectRateFirst}</p> : null}
    </>
  );
}

function ChosenRateCalculation({ solutionId, rateId }: { solutionId: number; rateId: string | number }) {
  const calculation = useRateCalculation(solutionId, rateId);
  if (calculation.isPending) return <Spinner label="Calculating fees" />;
  if (calculation.isError) return <p className={styles.hint}>{errorText(calculation.error, 'The fees could not be calculated.')}</p>;
  return <CalculationTable monthly={calculation.data.monthly} yearly={calculation.data.yearly} caption="Fees and total for the chosen rate" />;
}

function ContractStep({
  solution,
  agreed,
  onAgree,
  onVersion,
  contactEmail,
  contactEmailError,
  onContactEmail,
  onContactEmailDone,
}: {
  solution: DialogSolution;
  agreed: boolean;
  onAgree: (agreed: boolean) => void;
  onVersion: (version: string | null) => void;
  contactEmail: string;
  contactEmailError: string | null;
  onContactEmail: (email: string) => void;
  onContactEmailDone: () => void;
}) {
  return (
    <>
      <p className={styles.steps}>Step 2 of 2: read the contract and agree</p>
      {solution.contract ? (
        <>
          <ContractViewer url={solution.contract} title={`Contract for ${solution.name}`} onVersion={onVersion} />
          <a href={solution.contract} target="_blank" rel="noopener noreferrer">
            Open the contract in a new tab
          </a>
        </>
      ) : (
        <p className={styles.muted}>The contract is not available.</p>
      )}
      <TextField
        label="E-mail for the facilitator's decision"
        type="email"
        autoComplete="email"
        value={contactEmail}
        onChange={onContactEmail}
        onBlur={onContactEmailDone}
        error={contactEmailError}
        hint="The solution facilitator sees it with your request, and their decision is emailed to it."
      />
      <label className={styles.agree}>
        <input type="checkbox" checked={agreed} onChange={(event) => onAgree(event.target.checked)} />
        <span>I have read and agree to the contract of {solution.name}</span>
      </label>
    </>
  );
}
