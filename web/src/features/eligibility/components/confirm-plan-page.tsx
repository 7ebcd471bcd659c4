import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { useBlocker, useNavigate, useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Dialog } from '@/components/ui/dialog';
import { InfoTip, SelectField, TextField } from '@/components/ui/field';
import { ProviderSummary } from '@/components/ui/provider-summary';
import { Spinner } from '@/components/ui/spinner';
import { Stepper } from '@/components/ui/stepper';
import { paths } from '@/config/paths';
import { errorText } from '@/lib/api-client';
import { groupIdFor, initialPayerAndPlan, payerOptions, planAfterPayerChange, plansOf, showsPayerField } from '@/lib/insurance';
import { queryKeys } from '@/api/query-keys';
import { fullName, useMemberInfo, type Member, type Plan, type Relation } from '@/lib/member';
import { setAccessToken, signOut } from '@/lib/session';
import { addFamilyChoice, redirectTarget, selectedProvider } from '@/lib/storage';
import { formatPhone, isoToUsDate, maskDate, PHONE_INPUT_MAX_LENGTH, usDateToIso } from '@/lib/validation';
import { useConfirmInfo } from '@/api/eligibility/confirm-info';
import { postEnrollmentQueryOptions } from '@/api/enrolment/get-post-enrollment';
import { usePlans } from '@/api/eligibility/get-plans';
import { useClinicProfile } from '@/api/market/get-clinic-profile';
import { useSendVerification } from '@/api/auth/send-verification';
import type { ConfirmInfoResponse, SubscriberInfo } from '@/api/eligibility/types';
import {
  ELIGIBILITY_TEXTS,
  eligibilityErrors,
  eligibilityOutcome,
  needsSubscriberId,
  redirectPath,
  relationOptions,
  SUBSCRIBER_TOOLTIP,
  withPulledPlans,
  type EligibilityOutcome,
  type EligibilityValues,
} from '../utils/eligibility-form';
import { PLAN_TEXTS, PlanIdDialog, PlanListDialog } from './plan-dialogs';
import { SubscriberDialog } from './subscriber-dialog';
import styles from './eligibility.module.css';

export const STEPS_WITH_PROVIDER = ['Select Provider', 'Create account', 'Verify your eligibility', 'Schedule your first visit'];
export const STEPS_WITHOUT_PROVIDER = ['Personalize your search', 'Select Provider', 'Verify your eligibility', 'Schedule your first visit'];

const GENDERS = [
  { value: 'f', label: 'Female' },
  { value: 'm', label: 'Male' },
];

type DialogName =
  | 'verify-email'
  | 'checking'
  | 'subscriber'
  | 'add-family'
  | 'connect'
  | 'enrolled'
  | 'could-not-confirm'
  | 'not-eligible'
  | 'system-down'
  | 'retry'
  | 'cancel'
  | 'account-exists'
  | 'no-data'
  | 'select-provider'
  | 'plans'
  | 'plan-id'
  | 'error';

/** Stores an access token passed as `?token=` (a link from an email) when it looks like one. */
function useTokenFromQuery() {
  const [params, setParams] = useSearchParams();
  const token = params.get('token');
  useEffect(() => {
    if (!token) return;
    if (token.split('.').length === 3) setAccessToken(token);
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('token');
        return next;
      },
      { replace: true },
    );
  }, [token, setParams]);
}

/** /confirm-plan-information (2.3): the member confirms insurance eligibility against the roster. */
export function ConfirmPlanPage() {
  useTokenFromQuery();
  const member = useMemberInfo();
  if (member.isPending && member.fetchStatus !== 'idle') return <Spinner label="Loading your information" />;
  return <ConfirmPlanForm member={member.data ?? null} loadError={member.isError ? errorText(member.error, '') : null} />;
}

function initialValues(member: Member | null): EligibilityValues {
  return {
    firstName: member?.firstName ?? '',
    lastName: member?.lastName ?? '',
    dob: isoToUsDate(member?.dob),
    gender: member?.gender ?? '',
    phone: formatPhone(member?.phone ?? ''),
    relation: member?.subscriberRelation ?? 'Self',
    memberId: member?.memberId ?? '',
    payerId: member?.payerId ?? '',
    planId: member?.planId ?? '',
    subscriberMemberId: member?.subscriberMemberId ?? '',
  };
}

function ConfirmPlanForm({ member, loadError }: { member: Member | null; loadError: string | null }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const topRef = useRef<HTMLDivElement>(null);
  const stored = selectedProvider.get();
  const providerId = member?.providerId ?? stored?.providerId ?? null;
  const locationId = member?.locationId ?? stored?.locationId ?? null;
  const provider = useClinicProfile(providerId, locationId);

  const plansNeeded = member !== null && !(member.payers && member.payers.length > 0);
  const plans = usePlans(plansNeeded);
  // Plans found through 'Insert Your plan ID' join the employer's list.
  const [pulledPlans, setPulledPlans] = useState<Plan[]>([]);
  const payers = useMemo(() => withPulledPlans(payerOptions(member, plans.data ?? []), pulledPlans, member?.payerId ?? ''), [member, plans.data, pulledPlans]);
  const payerFieldShown = showsPayerField(payers);

  const [values, setValues] = useState<EligibilityValues>(() => initialValues(member));
  const [touched, setTouched] = useState<Partial<Record<keyof EligibilityValues, boolean>>>({});
  const [dirty, setDirty] = useState(false);
  const [dialog, setDialog] = useState<DialogName | null>(() => (member === null ? 'no-data' : member.emailVerified === false ? 'verify-email' : null));
  const [message, setMessage] = useState('');
  const [banner, setBanner] = useState(false);
  const [confirmed, setConfirmed] = useState<ConfirmInfoResponse | null>(null);
  const [redirect, setRedirect] = useState<string | null>(null);
  const [subscriberSent, setSubscriberSent] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const confirm = useConfirmInfo();
  const sendVerification = useSendVerification();

  // Once the payers are known, preselect a sole payer and its sole plan (keeping stored choices that still apply).
  useEffect(() => {
    if (payers.length === 0) return;
    setValues((current) => {
      const { payerId, planId } = initialPayerAndPlan(payers, current);
      return current.payerId === payerId && current.planId === planId ? current : { ...current, payerId, planId };
    });
  }, [payers]);

  useEffect(() => {
    if (member === null && !loadError) setDialog('no-data');
  }, [member, loadError]);

  // Leaving with unsaved changes asks first (spec: "Leaving early asks for confirmation").
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty && !leaving && confirmed === null && currentLocation.pathname !== nextLocation.pathname);
  useEffect(() => {
    if (blocker.state === 'blocked') setDialog('cancel');
  }, [blocker.state]);
  useEffect(() => {
    if (!dirty || confirmed) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [dirty, confirmed]);

  const errors = eligibilityErrors(values, { payerFieldShown });
  const valid = Object.keys(errors).length === 0;
  const planChoices = payerFieldShown ? plansOf(payers, values.payerId) : (payers[0]?.plans ?? []);
  const hasProvider = providerId !== null;
  const target = redirectPath(redirectTarget.get());
  // 'Insert Your plan ID' goes back to the plan list when opened from it.
  const [planIdFromList, setPlanIdFromList] = useState(false);
  const promptedPayer = useRef<string | null>(null);

  // A single plan is auto-selected (above); with several plans the member confirms one, once per payer.
  useEffect(() => {
    if (dialog !== null || values.planId || planChoices.length < 2) return;
    const key = values.payerId || '-';
    if (promptedPayer.current === key) return;
    promptedPayer.current = key;
    setDialog('plans');
  }, [dialog, values.planId, values.payerId, planChoices.length]);

  function choosePlan(planId: string) {
    setDirty(true);
    setValues((current) => ({ ...current, planId }));
    setTouched((current) => ({ ...current, planId: true }));
    setDialog(null);
  }

  function openPlanId(fromList: boolean) {
    setPlanIdFromList(fromList);
    setDialog('plan-id');
  }

  function planFound(plan: Plan) {
    const payerId = plan.payerId || values.payerId || payers[0]?.payerId || member?.payerId || '';
    setPulledPlans((current) => [...current.filter((item) => item.planId !== plan.planId), { ...plan, payerId }]);
    setDirty(true);
    setValues((current) => ({ ...current, payerId, planId: plan.planId }));
    setTouched((current) => ({ ...current, planId: true }));
    promptedPayer.current = payerId;
    setDialog(null);
  }

  function update<K extends keyof EligibilityValues>(key: K, value: EligibilityValues[K]) {
    setDirty(true);
    setValues((current) => ({ ...current, [key]: value }));
  }

  function touch(key: keyof EligibilityValues) {
    setTouched((current) => ({ ...current, [key]: true }));
  }

  const shown = (key: keyof EligibilityValues) => (touched[key] ? errors[key] : undefined);

  function leave(to: string) {
    setLeaving(true);
    setDialog(null);
    // Let the blocker see `leaving` before navigating.
    window.setTimeout(() => navigate(to), 0);
  }

  function applyOutcome(outcome: EligibilityOutcome) {
    switch (outcome.kind) {
      case 'confirmed':
        void onConfirmed(outcome.answer);
        return;
      case 'subscriber-info':
        setDialog('subscriber');
        return;
      case 'could-not-confirm':
      case 'not-eligible':
      case 'account-exists':
      case 'retry':
      case 'system-down':
      case 'no-data':
        setDialog(outcome.kind);
        return;
      case 'error':
        setMessage(outcome.message);
        setDialog('error');
    }
  }

  async function onConfirmed(answer: ConfirmInfoResponse) {
    if (answer.newAccessToken) setAccessToken(answer.newAccessToken);
    setConfirmed(answer);
    await queryClient.invalidateQueries({ queryKey: queryKeys.member.all });
    const selfWithFamily = Boolean(answer.hasFamily) && values.relation === 'Self';
    if (answer.nextStep === 'selectDPC') {
      setDialog('select-provider');
      return;
    }
    if (answer.nextStep !== 'complete') {
      console.warn('unexpected next step after eligibility', answer.nextStep);
      setMessage(ELIGIBILITY_TEXTS.confirmError);
      setDialog('error');
      return;
    }
    const enrolledProvider = answer.providerId ?? providerId;
    if (enrolledProvider) {
      try {
        const post = await queryClient.fetchQuery(postEnrollmentQueryOptions(enrolledProvider));
        const link = post.postMemberEnrollment?.redirect;
        if (link) {
          setRedirect(link);
          setDialog('connect');
          return;
        }
      } catch (failure) {
        console.warn('post-enrolment lookup failed', failure);
      }
    }
    setDialog(selfWithFamily ? 'add-family' : 'enrolled');
  }

  function submit(subscriber?: SubscriberInfo) {
    if (!valid || confirm.isPending || !member) return;
    const dob = usDateToIso(values.dob)!;
    setDialog('checking');
    setBanner(false);
    if (subscriber) setSubscriberSent(true);
    confirm.mutate(
      {
        firstName: values.firstName.trim(),
        lastName: values.lastName.trim(),
        dob,
        gender: values.gender,
        memberId: values.memberId.trim(),
        planId: values.planId,
        payerId: values.payerId || payers[0]?.payerId || '',
        groupId: groupIdFor(member.employer?.groups, payers, values.payerId || payers[0]?.payerId || '', values.planId) || member.groupId || '',
        phone: values.phone.trim(),
        subscriberRelation: values.relation as Relation,
        subscriberMemberId: needsSubscriberId(values.relation) ? values.subscriberMemberId.trim() : undefined,
        employerId: member.employerId,
        subscriber,
      },
      {
        onSuccess: (answer) => applyOutcome(eligibilityOutcome({ answer }, { relation: values.relation, subscriberSent: Boolean(subscriber) || subscriberSent })),
        onError: (error) => applyOutcome(eligibilityOutcome({ error }, { relation: values.relation, subscriberSent: Boolean(subscriber) || subscriberSent })),
      },
    );
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    setTouched(Object.fromEntries(Object.keys(values).map((key) => [key, true])));
    submit();
  }

  function reviewInformation() {
    setDialog(null);
    setBanner(true);
    topRef.current?.scrollIntoView?.({ block: 'start' });
    window.scrollTo?.({ top: 0 });
  }

  function finish(to: string) {
    setLeaving(true);
    setDialog(null);
    // The add-family page returns to the account details when started from here.
    window.setTimeout(() => navigate(to, { state: { from: paths.confirmPlanInformation.path } }), 0);
  }

  const location = provider.data;
  const locationLabel = location?.locationName ?? location?.companyName ?? member?.location?.name ?? stored?.name ?? 'your provider';

  return (
    <div className={styles.page} ref={topRef}>
      <Stepper steps={hasProvider ? STEPS_WITH_PROVIDER : STEPS_WITHOUT_PROVIDER} current={2} label="Enrolment steps" />
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
          <Card title="Your provider">
            {hasProvider ? (
              location ? (
                <ProviderSummary
                  provider={{ name: location.companyName, logo: location.logo, address1: location.contact?.address1, city: location.contact?.city, state: location.contact?.state, zip: location.contact?.zipCode }}
                />
              ) : provider.isPending ? (
                <Spinner inline label="Loading your provider" />
              ) : (
                <p className={styles.muted}>{stored?.name ?? member?.location?.name ?? 'Provider details are not available.'}</p>
              )
            ) : (
              <p className={styles.muted}>You can select a provider after confirming your eligibility.</p>
            )}
          </Card>
        </aside>

        <form className={styles.form} onSubmit={onSubmit} noValidate aria-label="Eligibility information">
          <fieldset className={styles.fieldset}>
            <legend>Personal information, as on your insurance card</legend>
            <div className={styles.row}>
              <TextField label="First name" autoComplete="given-name" value={values.firstName} onChange={(v) => update('firstName', v)} onBlur={() => touch('firstName')} error={shown('firstName')} />
              <TextField label="Last name" autoComplete="family-name" value={values.lastName} onChange={(v) => update('lastName', v)} onBlur={() => touch('lastName')} error={shown('lastName')} />
            </div>
            <div className={styles.row}>
              <TextField
                label="Date of birth"
                placeholder="MM/DD/YYYY"
                inputMode="numeric"
                autoComplete="bday"
                maxLength={10}
                value={values.dob}
                onChange={(v) => update('dob', maskDate(v))}
                onBlur={() => touch('dob')}
                error={shown('dob')}
              />
              <SelectField label="Gender" placeholder="Select" options={GENDERS} value={values.gender} onChange={(v) => update('gender', v)} onBlur={() => touch('gender')} error={shown('gender')} />
            </div>
            <TextField
              label="Mobile phone"
              type="tel"
              inputMode="tel"
              autoComplete="tel-national"
              placeholder="XXX XXX XXXX"
              maxLength={PHONE_INPUT_MAX_LENGTH}
              value={values.phone}
              onChange={(v) => update('phone', formatPhone(v))}
              onBlur={() => touch('phone')}
              error={shown('phone')}
            />
          </fieldset>

          <fieldset className={styles.fieldset}>
            <legend>Insurance</legend>
            <SelectField label="Employer" value={member?.companyName ?? ''} onChange={() => {}} options={member?.companyName ? [{ value: member.companyName, label: member.companyName }] : []} placeholder="Employer" disabled />
            <SelectField
              label="Relationship to subscriber"
              labelExtra={<InfoTip label="Subscriber" text={SUBSCRIBER_TOOLTIP} />}
              placeholder="Select"
              options={relationOptions(false).map((relation) => ({ value: relation, label: relation }))}
              value={values.relation}
              onChange={(v) => update('relation', v as Relation)}
              onBlur={() => touch('relation')}
              error={shown('relation')}
            />
            <TextField label="Member ID" value={values.memberId} onChange={(v) => update('memberId', v)} onBlur={() => touch('memberId')} error={shown('memberId')} />
            {payerFieldShown ? (
              <SelectField
                label="Payer ID"
                placeholder="Select your payer"
                options={payers.map((payer) => ({ value: payer.payerId, label: `${payer.payerName} (${payer.payerId})` }))}
                value={values.payerId}
                onChange={(v) => {
                  setDirty(true);
                  setValues((current) => ({ ...current, payerId: v, planId: planAfterPayerChange(payers, v) }));
                }}
                onBlur={() => touch('payerId')}
                error={shown('payerId')}
              />
            ) : null}
            <SelectField
              label="Health plan"
              placeholder={plans.isPending && plansNeeded ? 'Loading plans…' : 'Select your plan'}
              options={planChoices.map((plan) => ({ value: plan.planId, label: plan.name }))}
              value={values.planId}
              onChange={(v) => update('planId', v)}
              onBlur={() => touch('planId')}
              disabled={payerFieldShown && !values.payerId}
              error={shown('planId') ?? (plans.isError && planChoices.length === 0 ? errorText(plans.error, 'Something went wrong. Please try again later.') : undefined)}
            />
            <Button variant="quiet" size="sm" className={styles.planIdLink} onClick={() => openPlanId(false)}>
              {PLAN_TEXTS.insertPlanId}
            </Button>
            {needsSubscriberId(values.relation) ? (
              <TextField
                label="Employee's member ID"
                value={values.subscriberMemberId}
                onChange={(v) => update('subscriberMemberId', v)}
                onBlur={() => touch('subscriberMemberId')}
                error={shown('subscriberMemberId')}
              />
            ) : null}
          </fieldset>

          <div className={styles.actions}>
            <Button variant="secondary" onClick={() => setDialog('cancel')}>
              Cancel
            </Button>
            <Button type="submit" disabled={!valid || confirm.isPending}>
              Confirm Eligibility
            </Button>
          </div>
        </form>
      </div>

      <Dialog open={dialog === 'checking'} title="Checking eligibility" onClose={() => {}}>
        <div className={styles.dialogBody}>
          <Spinner label="Checking your eligibility" />
          <p className={styles.center}>We are checking your information with your health plan. This takes a few seconds.</p>
        </div>
      </Dialog>

      <Dialog
        open={dialog === 'verify-email'}
        title="Verify your email"
        onClose={() => setDialog(null)}
        footer={
          <>
            <Button
              variant="secondary"
              disabled={sendVerification.isPending || sendVerification.isSuccess}
              onClick={() => member && sendVerification.mutate(member.email)}
            >
              {sendVerification.isSuccess ? 'Link sent' : 'Resend link'}
            </Button>
            <Button onClick={() => setDialog(null)}>Continue</Button>
          </>
        }
      >
        <p>
          We sent a link to <strong>{member?.email}</strong>. Open it to confirm your email and set your password. You can confirm your
          eligibility now.
        </p>
      </Dialog>

      <PlanListDialog
        open={dialog === 'plans'}
        plans={planChoices}
        selected={values.planId}
        onChoose={choosePlan}
        onInsertId={() => openPlanId(true)}
        onClose={() => setDialog(null)}
      />

      <PlanIdDialog open={dialog === 'plan-id'} onBack={() => setDialog(planIdFromList ? 'plans' : null)} onFound={planFound} />

      <SubscriberDialog
        open={dialog === 'subscriber'}
        onClose={() => setDialog(null)}
        onSubmit={(subscriber) => submit(subscriber)}
        initialMemberId={values.subscriberMemberId}
      />

      <Dialog
        open={dialog === 'add-family'}
        title="Eligibility confirmed!"
        onClose={() => {}}
        footer={
          <>
            <Button
              variant="secondary"
              onClick={() => {
                addFamilyChoice.set('no');
                finish(paths.membership.path);
              }}
            >
              No I&apos;m all set
            </Button>
            <Button
              onClick={() => {
                addFamilyChoice.set('yes');
                finish(paths.addFamilyMember.path);
              }}
            >
              Yes
            </Button>
          </>
        }
      >
        <p>Would you like to add your family members to your membership?</p>
      </Dialog>

      <Dialog
        open={dialog === 'connect'}
        title={`You're enrolled with ${locationLabel}`}
        onClose={() => {}}
        footer={
          <Button
            onClick={() => {
              if (redirect) window.open(redirect, '_blank', 'noopener');
              if (confirmed?.hasFamily && values.relation === 'Self') setDialog('add-family');
              else finish(paths.membership.path);
            }}
          >
            Connect me now
          </Button>
        }
      >
        <p>{locationLabel} has its own member portal. Connect to finish setting up your membership with them.</p>
      </Dialog>

      <Dialog open={dialog === 'enrolled'} title={`You're enrolled with ${locationLabel}`} onClose={() => finish(paths.membership.path)} footer={<Button onClick={() => finish(paths.membership.path)}>Okay</Button>}>
        <p>Your eligibility is confirmed. Your membership starts with your first visit.</p>
      </Dialog>

      <Dialog
        open={dialog === 'select-provider'}
        title="Eligibility confirmed!"
        onClose={() => {}}
        footer={
          <Button
            onClick={() =>
              finish(paths.marketplace.getHref({ company: confirmed?.filterMarket?.company ?? undefined, location: confirmed?.filterMarket?.location ?? undefined, selectProvider: 'true' }))
            }
          >
            Select my provider now
          </Button>
        }
      >
        <p>Now choose the clinic where you will get your care.</p>
      </Dialog>

      <Dialog
        open={dialog === 'could-not-confirm'}
        title={ELIGIBILITY_TEXTS.couldNotConfirm}
        onClose={reviewInformation}
        footer={
          <>
            <Button variant="secondary" onClick={() => finish(target)}>
              Fix Later
            </Button>
            <Button onClick={reviewInformation}>Review information</Button>
          </>
        }
      >
        <p>Please check that your details match your insurance card, or fix them later from your account.</p>
      </Dialog>

      <Dialog
        open={dialog === 'not-eligible'}
        title={ELIGIBILITY_TEXTS.notEligible}
        onClose={reviewInformation}
        footer={
          <>
            <Button variant="secondary" onClick={() => finish(target)}>
              Fix Later
            </Button>
            <Button onClick={reviewInformation}>Review information</Button>
          </>
        }
      >
        <p>Your health plan lists you under another plan. Check the plan you selected, or contact your employer&apos;s benefits team.</p>
      </Dialog>

      <Dialog open={dialog === 'system-down'} title={ELIGIBILITY_TEXTS.systemDown} onClose={() => finish(target)} footer={<Button onClick={() => finish(target)}>Okay</Button>}>
        <p>Your account is created and your information is saved. Please log in later to confirm your eligibility.</p>
      </Dialog>

      <Dialog open={dialog === 'retry'} title="We are having temporary issues" onClose={() => finish(target)} footer={<Button onClick={() => finish(target)}>Okay</Button>}>
        <p>Your information is saved. Our system will retry confirming your eligibility and notify you by email.</p>
      </Dialog>

      <Dialog
        open={dialog === 'account-exists'}
        title={ELIGIBILITY_TEXTS.accountExists}
        onClose={reviewInformation}
        footer={
          <>
            <Button variant="secondary" onClick={reviewInformation}>
              Review information
            </Button>
            <Button onClick={signOut}>Login</Button>
          </>
        }
      >
        <p>Log in with the account that already holds this membership, or review the information you entered.</p>
      </Dialog>

      <Dialog open={dialog === 'no-data'} title={ELIGIBILITY_TEXTS.noData} onClose={signOut} footer={<Button onClick={signOut}>Login</Button>}>
        <p>We could not find your registration. Please log in again.</p>
      </Dialog>

      <Dialog open={dialog === 'error'} title="Oops. Something went wrong" onClose={() => setDialog(null)} footer={<Button onClick={() => setDialog(null)}>OK</Button>}>
        <p>{message}</p>
      </Dialog>

      <Dialog
        open={dialog === 'cancel'}
        title="Are you sure you want to cancel?"
        onClose={() => {
          blocker.reset?.();
          setDialog(null);
        }}
        footer={
          <>
            <Button
              variant="secondary"
              onClick={() => {
                blocker.reset?.();
                setDialog(null);
              }}
            >
              No, stay
            </Button>
            <Button
              onClick={() => {
                if (blocker.state === 'blocked') {
                  setLeaving(true);
                  setDialog(null);
                  blocker.proceed();
                } else leave(target);
              }}
            >
              Yes, cancel
            </Button>
          </>
        }
      >
        <p>Your eligibility is not confirmed yet{member ? `, ${fullName(member)}` : ''}. You can come back and confirm it later.</p>
      </Dialog>
    </div>
  );
}
