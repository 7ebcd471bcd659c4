import { useSearchParams } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { AuthCard } from '@/components/ui/auth-card';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { errorText, isApiError } from '@/lib/api-client';
import { formatDate, formatMoney } from '@/lib/format';
import { fullName } from '@/lib/member';
import type { ReviewDecision } from '@/api/providers/types';
import { useDecideParticipation, useParticipationReview } from '@/api/providers/participation-review';
import { CalculationTable } from './rate-figures';
import styles from './provider-portal.module.css';

export const REVIEW_TEXTS = {
  title: 'Participation request',
  expired: 'This link has expired or was already used',
  expiredBody: 'Review links work once and for 7 days. If the request still needs a decision, an operator can approve or decline it.',
  missing: 'This link is incomplete',
} as const;

/**
 * /dpc-providers/participations/review?token=…: the facilitator's emailed link (public). Shows
 * who asks to participate with which rate, then Approve or Decline; the outcome replaces the
 * buttons. A used or expired link (410) says so.
 */
export function ParticipationReviewPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const review = useParticipationReview(token);
  const decide = useDecideParticipation();

  if (!token) {
    return (
      <AuthCard title={REVIEW_TEXTS.title}>
        <Alert tone="error" title={REVIEW_TEXTS.missing}>
          Open the link from the email again, or copy the whole address into the browser.
        </Alert>
      </AuthCard>
    );
  }
  if (review.isPending) {
    return (
      <AuthCard title={REVIEW_TEXTS.title}>
        <Spinner label="Loading the request" />
      </AuthCard>
    );
  }
  if (review.isError) {
    const expired = isApiError(review.error, 410);
    return (
      <AuthCard title={REVIEW_TEXTS.title}>
        <Alert tone="error" title={expired ? REVIEW_TEXTS.expired : 'Oops. Something went wrong'}>
          {expired ? REVIEW_TEXTS.expiredBody : errorText(review.error, 'Please try again later.')}
        </Alert>
      </AuthCard>
    );
  }

  const data = review.data;
  const requester = fullName(data.requestedBy);
  const choose = (decision: ReviewDecision) => decide.mutate({ token, decision });
  // An active participation asking for a change of rate: from the rate in force to the one requested.
  const change = data.status === 'active' && data.requestedRate ? data.requestedRate : null;
  const waiting = data.status === 'pending' || change !== null;
  const approved = decide.variables?.decision === 'approve';
  const decidedExpired = decide.isError && isApiError(decide.error, 410);

  return (
    <AuthCard
      title={REVIEW_TEXTS.title}
      subtitle={
        change
          ? `${data.organisation.name} participates in ${data.solution.name} and asks for a change of rate from ${data.rate.group} (${formatMoney(data.rate.baseRate)}) to ${change.group} (${formatMoney(change.baseRate)}).`
          : `${data.organisation.name} asks to participate in ${data.solution.name}.`
      }
      wide
    >
      <dl className={styles.facts}>
        <dt>Solution</dt>
        <dd>{data.solution.name}</dd>
        <dt>DPC provider</dt>
        <dd>{data.organisation.name}</dd>
        <dt>Requested by</dt>
        <dd>{requester ? `${requester} (${data.requestedBy?.email ?? ''})` : (data.requestedBy?.email ?? '—')}</dd>
        {data.contactEmail ? (
          <>
            <dt>Write to</dt>
            <dd>
              <a href={`mailto:${data.contactEmail}`}>{data.contactEmail}</a> (your decision is emailed there)
            </dd>
          </>
        ) : null}
        <dt>Requested</dt>
        <dd>{formatDate(data.requestedAt)}</dd>
        <dt>{change ? 'Rate in force' : 'Rate group'}</dt>
        <dd>{change ? `${data.rate.group}, ${formatMoney(data.rate.baseRate)} per member per month` : data.rate.group}</dd>
        <dt>{change ? 'Requested rate' : 'Base rate'}</dt>
        <dd>{change ? `${change.group}, ${formatMoney(change.baseRate)} per member per month` : `${formatMoney(data.rate.baseRate)} per member per month`}</dd>
      </dl>
      <CalculationTable
        monthly={change && data.requestedMonthly ? data.requestedMonthly : data.monthly}
        yearly={change && data.requestedYearly ? data.requestedYearly : data.yearly}
        caption="Fees and totals of the requested rate"
      />
      {decide.isSuccess ? (
        <Alert tone={approved ? 'success' : 'info'} title={approved ? 'Approved' : 'Declined'}>
          {decide.data.message}
        </Alert>
      ) : null}
      {decide.isError ? (
        <Alert tone="error" title={decidedExpired ? REVIEW_TEXTS.expired : 'Oops. Something went wrong'}>
          {decidedExpired ? REVIEW_TEXTS.expiredBody : errorText(decide.error, 'Please try again later.')}
        </Alert>
      ) : null}
      {!waiting && !decide.isSuccess ? (
        <Alert tone="info" title="Already decided">
          This request is no longer waiting for a decision.
        </Alert>
      ) : null}
      {!decide.isSuccess && !decidedExpired && waiting ? (
        <div className={styles.reviewActions}>
          <Button variant="secondary" disabled={decide.isPending} onClick={() => choose('decline')}>
            Decline
          </Button>
          <Button disabled={decide.isPending} onClick={() => choose('approve')}>
            Approve
          </Button>
        </div>
      ) : null}
    </AuthCard>
  );
}
