import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ChevronLeftIcon } from '@/components/icons/icons';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { CollapsibleText } from '@/components/ui/collapsible-text';
import { Dialog } from '@/components/ui/dialog';
import { LogoAvatar } from '@/components/ui/logo-avatar';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { errorText } from '@/lib/api-client';
import { formatDate, formatMoney } from '@/lib/format';
import { WebsiteButton } from '@/components/ui/website-button';
import type { Solution } from '@/api/solutions/types';
import { useSolution } from '@/api/solutions/get-solution';
import { useRateCalculation } from '@/api/providers/calculate-rate';
import { useUpdateParticipation } from '@/api/providers/update-participation';
import { feeCadence, participationButton, participationState, PROVIDER_TEXTS, stateLabel } from '../utils/participation';
import { FavoriteButton } from './favorite-button';
import { ChangeRateDialog, CHANGE_RATE_TEXTS } from './change-rate-dialog';
import { ParticipationDialog } from './participation-dialog';
import { CalculationTable, StatusChip } from './rate-figures';
import styles from './provider-portal.module.css';

export const STOP_CONFIRM_TITLE = 'Stop participating?';

/**
 * /dpc-providers/solutions/details/{id}: a solution as the provider sees it. Details, Solution
 * Facilitator, Enrollment/Participation (the state), then Participation Details while contracted
 * or Rates & Fees otherwise; the button follows the state (Participate, Pending Approval, Stop
 * Participating), Change Rate is there while contracted, and the heart marks it a favourite.
 */
export function ProviderSolutionDetails({ solutionId }: { solutionId: number }) {
  const solution = useSolution(solutionId);
  const navigate = useNavigate();
  const [participateOpen, setParticipateOpen] = useState(false);
  const [changeRateOpen, setChangeRateOpen] = useState(false);
  const [confirmStop, setConfirmStop] = useState(false);
  const [stopError, setStopError] = useState<string | null>(null);
  const stop = useUpdateParticipation();

  if (solution.isPending) return <Spinner label="Loading solution" />;
  if (solution.isError) {
    return (
      <div className={styles.detailPage}>
        <Alert tone="error" title="Oops. Something went wrong">
          {errorText(solution.error, 'We could not load this solution.')}
        </Alert>
      </div>
    );
  }
  const data = solution.data;
  const state = participationState(data.participation?.status);
  const button = participationButton(state);
  const contact = data.facilitator.primaryContact;
  const contracted = state === 'pending' || state === 'active';

  function stopParticipating() {
    setConfirmStop(false);
    stop.mutate(
      { solutionId: data.id, contracted: false },
      { onError: (error) => setStopError(errorText(error, PROVIDER_TEXTS.retryTitle)) },
    );
  }

  return (
    <div className={styles.detailPage}>
      <button type="button" className={styles.back} onClick={() => navigate(paths.providerSolutions.path)}>
        <ChevronLeftIcon size={18} /> Back to Solutions
      </button>
      <section className={styles.card}>
        <div className={styles.head}>
          <LogoAvatar name={data.name} logo={data.logo} size={72} />
          <div>
            <h1>{data.name}</h1>
            <p className={styles.muted}>{data.category}</p>
            <StatusChip state={state} />
          </div>
          <FavoriteButton solutionId={data.id} name={data.name} favorite={Boolean(data.favorite)} />
        </div>

        <section className={styles.block}>
          <h2>Details</h2>
          {data.details.description ? <CollapsibleText text={data.details.description} /> : null}
          {data.details.definition ? <p className={styles.muted}>{data.details.definition}</p> : null}
          {data.details.website ? (
            <div>
              <WebsiteButton website={data.details.website} />
            </div>
          ) : null}
        </section>

        <section className={styles.block}>
          <h2>Solution Facilitator</h2>
          <dl className={styles.contact}>
            <dt>Primary contact</dt>
            <dd>{[contact.firstName, contact.lastName].filter(Boolean).join(' ') || '—'}</dd>
            <dt>Email</dt>
            <dd>{contact.email ? <a href={`mailto:${contact.email}`}>{contact.email}</a> : '—'}</dd>
            <dt>Address</dt>
            <dd>{data.facilitator.address1 || '—'}</dd>
          </dl>
        </section>

        <section className={styles.block}>
          <h2>Enrollment/Participation</h2>
          <dl className={styles.facts}>
            <dt>Status</dt>
            <dd>{stateLabel(state)}</dd>
            {/* While contracted the dates are in Participation Details. */}
            {!contracted && data.participation?.requestedAt ? (
              <>
                <dt>Requested</dt>
                <dd>{formatDate(data.participation.requestedAt)}</dd>
              </>
            ) : null}
            {/* A declined or stopped participation says when it ended. */}
            {state === 'inactive' && (data.participation?.stoppedAt || data.participation?.decidedAt) ? (
              <>
                <dt>{data.participation.status === 'stopped' ? 'Stopped' : 'Decided'}</dt>
                <dd>{formatDate(data.participation.stoppedAt ?? data.participation.decidedAt)}</dd>
              </>
            ) : null}
          </dl>
        </section>

        {contracted ? <ParticipationDetails solution={data} /> : <RatesAndFees solution={data} />}

        {stopError ? (
          <Alert tone="error" title={PROVIDER_TEXTS.retryTitle}>
            {stopError}
          </Alert>
        ) : null}
        <div className={styles.footer}>
          <Button variant="secondary" onClick={() => navigate(paths.providerSolutions.path)}>
            Back to Solutions
          </Button>
          {contracted ? (
            <Button variant="secondary" disabled={stop.isPending} onClick={() => setChangeRateOpen(true)}>
              {CHANGE_RATE_TEXTS.button}
            </Button>
          ) : null}
          <Button
            variant={button.action === 'stop' ? 'danger' : 'primary'}
            disabled={button.disabled || stop.isPending}
            onClick={() => {
              setStopError(null);
              if (button.action === 'participate') setParticipateOpen(true);
              if (button.action === 'stop') setConfirmStop(true);
            }}
          >
            {button.label}
          </Button>
        </div>
      </section>

      {participateOpen ? <ParticipationDialog solution={data} open={participateOpen} onClose={() => setParticipateOpen(false)} /> : null}
      {changeRateOpen ? <ChangeRateDialog solution={data} open={changeRateOpen} onClose={() => setChangeRateOpen(false)} /> : null}
      <Dialog
        open={confirmStop}
        title={STOP_CONFIRM_TITLE}
        onClose={() => setConfirmStop(false)}
        footer={
          <>
            <Button variant="secondary" onClick={() => setConfirmStop(false)}>
              Cancel
            </Button>
            <Button variant="danger" onClick={stopParticipating}>
              {PROVIDER_TEXTS.stopParticipating}
            </Button>
          </>
        }
      >
        <p>
          Your organisation will stop participating in <strong>{data.name}</strong>. You can ask to participate again later; the facilitator will
          have to approve it again.
        </p>
      </Dialog>
    </div>
  );
}

/** While contracted: the rate group, base rate, fees and monthly/yearly totals (the server's calculation), and the dates. */
function ParticipationDetails({ solution }: { solution: Solution }) {
  const rate = solution.rate;
  const rateId = rate?._id ?? null;
  const calculation = useRateCalculation(solution.id, rateId);
  const participation = solution.participation;
  return (
    <section className={styles.block}>
      <h2>Participation Details</h2>
      <dl className={styles.facts}>
        <dt>Rate group</dt>
        <dd>{rate?.rateGroup ?? '—'}</dd>
        <dt>Base rate</dt>
        <dd>{rate ? `${formatMoney(rate.amount)} per member per month` : '—'}</dd>
        {rate?.totalNet ? (
          <>
            <dt>Net per member</dt>
            <dd>{formatMoney(rate.totalNet)} per month</dd>
          </>
        ) : null}
        {/* A change of rate waits for the facilitator; the rate above stays in force until then. */}
        {participation?.requestedRate ? (
          <>
            <dt>Requested change</dt>
            <dd data-testid="requested-rate">
              {participation.requestedRate.group}, {formatMoney(participation.requestedRate.baseRate)} per member per month: awaiting the
              facilitator&apos;s approval
            </dd>
          </>
        ) : null}
        <dt>Requested</dt>
        <dd>{formatDate(participation?.requestedAt ?? participation?.date)}</dd>
        <dt>Decided</dt>
        <dd>{participation?.decidedAt ? formatDate(participation.decidedAt) : 'Awaiting the facilitator'}</dd>
      </dl>
      {calculation.isSuccess ? <CalculationTable monthly={calculation.data.monthly} yearly={calculation.data.yearly} caption="Fees and totals of your rate" /> : null}
      {calculation.isPending && rateId !== null ? <Spinner label="Calculating fees" /> : null}
    </section>
  );
}

/** Not contracted: the solution's rates and its fee list. */
function RatesAndFees({ solution }: { solution: Solution }) {
  const rates = solution.rates ?? [];
  const fees = solution.fees ?? [];
  return (
    <section className={styles.block}>
      <h2>Rates &amp; Fees</h2>
      <p className={styles.muted}>Rates are in US$ per member per month (PMPM), paid monthly.</p>
      <div className={styles.tableWrap}>
        <table className={styles.table}>
          <caption className="visually-hidden">Rates</caption>
          <thead>
            <tr>
              <th scope="col">Rate group</th>
              <th scope="col" className={styles.num}>
                Base rate (PMPM)
              </th>
            </tr>
          </thead>
          <tbody>
            {rates.map((rate) => (
              <tr key={String(rate._id)}>
                <td>{rate.group}</td>
                <td className={styles.num}>{formatMoney(rate.baseRate)}</td>
              </tr>
            ))}
            {rates.length === 0 ? (
              <tr>
                <td colSpan={2}>No rates yet.</td>
              </tr>
            ) : null}
          </tbody>
        </table>
      </div>
      <div className={styles.tableWrap}>
        <table className={styles.table}>
          <caption className="visually-hidden">Fees</caption>
          <thead>
            <tr>
              <th scope="col">Fee</th>
              <th scope="col" className={styles.num}>
                Amount
              </th>
              <th scope="col">Charged</th>
            </tr>
          </thead>
          <tbody>
            {fees.map((fee) => (
              <tr key={fee.entity}>
                <td>{fee.entity}</td>
                <td className={styles.num}>{fee.type === 'percent' ? `${fee.value ?? fee.amount}%` : formatMoney(fee.amount)}</td>
                <td>{feeCadence(fee.entity)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
