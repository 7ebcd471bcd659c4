import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { FormActions } from '@/components/forms/form-actions';
import { Alert } from '@/components/ui/alert';
import { Spinner } from '@/components/ui/spinner';
import { Stepper } from '@/components/ui/stepper';
import { paths } from '@/config/paths';
import { errorText } from '@/lib/api-client';
import { useMemberInfo, type Member } from '@/lib/member';
import { stepsDone } from '@/lib/enrolment-steps';
import { redirectTarget, selectedProvider, storedEmployer } from '@/lib/storage';
import { useClinicProfile } from '@/api/market/get-clinic-profile';
import type { SubscriberInfo } from '@/api/eligibility/types';
import { ELIGIBILITY_TEXTS } from '@/lib/eligibility-texts';
import { redirectPath } from '../utils/eligibility-form';
import { ConfirmPlanDialogs, type ConfirmPlanDialogName } from './confirm-plan-dialogs';
import { EligibilityFieldsets } from './eligibility-fieldsets';
import { PlanIdDialog, PlanListDialog } from './plan-dialogs';
import { SubscriberDialog } from './subscriber-dialog';
import { useConfirmEligibility } from './use-confirm-eligibility';
import { useEligibilityValues } from './use-eligibility-values';
import { useLeaveGuard } from './use-leave-guard';
import { usePlanPrompt } from './use-plan-prompt';
import { useTokenFromQuery } from './use-token-from-query';
import { YourProviderCard } from './your-provider-card';
import styles from './eligibility.module.css';

export const STEPS_WITH_PROVIDER = ['Select Provider', 'Create account', 'Verify your eligibility', 'Schedule your first visit'];
export const STEPS_WITHOUT_PROVIDER = ['Personalize your search', 'Select Provider', 'Verify your eligibility', 'Schedule your first visit'];

/** The 4-step header of the eligibility pages: a step is ticked only when it is true for the member. */
export function EnrolmentStepper({ member, hasProvider, current }: { member: Member | null; hasProvider: boolean; current: number }) {
  const steps = hasProvider ? STEPS_WITH_PROVIDER : STEPS_WITHOUT_PROVIDER;
  const done = stepsDone(steps, {
    employerChosen: Boolean(member?.companyName ?? member?.employerId ?? storedEmployer.get()),
    // The account exists once signed in; confirming its email is the verify-email dialog's job.
    accountCreated: member !== null,
    providerChosen: hasProvider,
    eligibilityConfirmed: member?.eligibility?.status === 'active',
    membershipActive: member?.subscription?.status === 'active',
  });
  return <Stepper steps={steps} current={current} done={done} label="Enrolment steps" />;
}

/** /confirm-plan-information (2.3): the member confirms insurance eligibility against the roster. */
export function ConfirmPlanPage() {
  useTokenFromQuery();
  const member = useMemberInfo();
  if (member.isPending && member.fetchStatus !== 'idle') return <Spinner label="Loading your information" />;
  return <ConfirmPlanForm member={member.data ?? null} loadError={member.isError ? errorText(member.error, '') : null} />;
}

function ConfirmPlanForm({ member, loadError }: { member: Member | null; loadError: string | null }) {
  const topRef = useRef<HTMLDivElement>(null);
  const stored = selectedProvider.get();
  const providerId = member?.providerId ?? stored?.providerId ?? null;
  const locationId = member?.locationId ?? stored?.locationId ?? null;
  const provider = useClinicProfile(providerId, locationId);
  const eligibility = useEligibilityValues(member);
  const { form, payers, planChoices } = eligibility;
  const { values } = form;

  const [dialog, setDialog] = useState<ConfirmPlanDialogName | null>(() => (member === null ? 'no-data' : member.emailVerified === false ? 'verify-email' : null));
  const [banner, setBanner] = useState(false);
  useEffect(() => {
    if (member === null && !loadError) setDialog('no-data');
  }, [member, loadError]);

  const confirmation = useConfirmEligibility({ member, values, valid: form.valid, payers, providerId, openDialog: setDialog, showFieldError: form.showServerError });
  const openCancel = useCallback(() => setDialog('cancel'), []);
  const guard = useLeaveGuard(form.dirty && confirmation.confirmed === null, openCancel);
  const planPrompt = usePlanPrompt({ dialog, openDialog: setDialog, planId: values.planId, payerId: values.payerId, planCount: planChoices.length });
  const hasProvider = providerId !== null;
  const target = redirectPath(redirectTarget.get());

  function submit(subscriber?: SubscriberInfo) {
    if (confirmation.submit(subscriber)) setBanner(false);
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    form.touchAll();
    submit();
  }

  function reviewInformation() {
    setDialog(null);
    setBanner(true);
    topRef.current?.scrollIntoView?.({ block: 'start' });
    window.scrollTo?.({ top: 0 });
  }

  function finish(to: string) {
    setDialog(null);
    // The add-family page returns to the account details when started from here.
    guard.leave(to, { state: { from: paths.confirmPlanInformation.path } });
  }

  const location = provider.data;
  const locationLabel = location?.locationName ?? location?.companyName ?? member?.location?.name ?? stored?.name ?? 'your provider';

  return (
    <div className={styles.page} ref={topRef}>
      <EnrolmentStepper member={member} hasProvider={hasProvider} current={2} />
      <header className={styles.header}>
        <h1>Verify your eligibility</h1>
        <p className={styles.muted}>Enter your details exactly as they appear on your insurance card.</p>
      </header>
      {banner ? (
        <Alert tone="error" title="Eligibility could not be verified">
          {ELIGIBILITY_TEXTS.banner}
        </Alert>
      ) : null}
      {loadError ? <Alert tone="error">{loadError}</Alert> : null}

      <div className={styles.layout}>
        <aside className={styles.aside}>
          <YourProviderCard hasProvider={hasProvider} location={location} loading={provider.isPending} fallbackName={stored?.name ?? member?.location?.name} />
        </aside>

        <form className={styles.form} onSubmit={onSubmit} noValidate aria-label="Eligibility information">
          <EligibilityFieldsets eligibility={eligibility} companyName={member?.companyName ?? ''} onInsertPlanId={() => planPrompt.openPlanId(false)} />
          <FormActions className={styles.actions} onCancel={() => setDialog('cancel')} submitLabel="Confirm Eligibility" disabled={!form.valid || confirmation.pending} />
        </form>
      </div>

      <PlanListDialog
        open={dialog === 'plans'}
        plans={planChoices}
        selected={values.planId}
        onChoose={(planId) => {
          eligibility.choosePlan(planId);
          setDialog(null);
        }}
        onInsertId={() => planPrompt.openPlanId(true)}
        onClose={() => setDialog(null)}
      />
      <PlanIdDialog
        open={dialog === 'plan-id'}
        onBack={planPrompt.backFromPlanId}
        onFound={(plan) => {
          planPrompt.markPrompted(eligibility.choosePulledPlan(plan));
          setDialog(null);
        }}
      />
      <SubscriberDialog open={dialog === 'subscriber'} onClose={() => setDialog(null)} onSubmit={(subscriber) => submit(subscriber)} initialMemberId={values.subscriberMemberId} />
      <ConfirmPlanDialogs
        dialog={dialog}
        openDialog={setDialog}
        member={member}
        locationLabel={locationLabel}
        message={confirmation.message}
        confirmed={confirmation.confirmed}
        redirect={confirmation.redirect}
        selfSubscriber={values.relation === 'Self'}
        target={target}
        finish={finish}
        reviewInformation={reviewInformation}
        onStay={() => {
          guard.stay();
          setDialog(null);
        }}
        onConfirmLeave={() => {
          setDialog(null);
          guard.confirmLeave(target);
        }}
      />
    </div>
  );
}
