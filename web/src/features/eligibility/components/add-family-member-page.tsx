import { type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { FormActions } from '@/components/forms/form-actions';
import { Alert } from '@/components/ui/alert';
import { Spinner } from '@/components/ui/spinner';
import { Stepper } from '@/components/ui/stepper';
import { stepsDone } from '@/lib/enrolment-steps';
import { paths } from '@/config/paths';
import { errorText } from '@/lib/api-client';
import { payerOptions } from '@/lib/insurance';
import { fullName, useMemberInfo, type FamilyMember, type Member } from '@/lib/member';
import { redirectTarget, selectedDependent } from '@/lib/storage';
import { MESSAGES } from '@/lib/validation';
import { useFamilyMember } from '@/api/family/family-members';
import { AddFamilyDialogs, FAMILY_TEXTS } from './add-family-dialogs';
import { FamilyMemberFieldsets } from './family-member-fieldsets';
import { useAddFamily } from './use-add-family';
import { blankFamilyValues, useFamilyMemberForm } from './use-family-member-form';
import styles from './eligibility.module.css';
import { useTokenFromQuery } from './use-token-from-query';

export const ADD_FAMILY_STEPS = ['Select Provider', 'Create account', 'Verify your eligibility', 'Add Family Member', 'Schedule your first visit'];

/** The route state: where the flow started, and the family member to confirm again (revise mode). */
export interface AddFamilyState {
  from?: string;
  reviseId?: number;
}

/**
 * /add-family-member (2.5): a Self subscriber adds a spouse or dependent; the insurance is the
 * subscriber's. With `reviseId` in the route state (Confirm Eligibility in the family panel) the
 * stored family member is prefilled and only confirmed again.
 */
export function AddFamilyMemberPage() {
  // A link from an email signs the subscriber in here, as on /confirm-plan-information (spec 2.1).
  useTokenFromQuery();
  const member = useMemberInfo();
  const state = (useLocation().state ?? null) as AddFamilyState | null;
  const reviseId = typeof state?.reviseId === 'number' && state.reviseId > 0 ? state.reviseId : null;
  const entry = useFamilyMember(reviseId);
  if (member.isPending && member.fetchStatus !== 'idle') return <Spinner label="Loading your information" />;
  if (reviseId !== null && entry.isPending) return <Spinner label="Loading your family member" />;
  return (
    <AddFamilyForm
      key={reviseId ?? 'new'}
      member={member.data ?? null}
      revise={reviseId !== null && entry.data ? { ...entry.data, id: entry.data.id ?? reviseId } : null}
      reviseError={reviseId !== null && entry.isError ? errorText(entry.error, MESSAGES.somethingWrong) : null}
      from={state?.from}
    />
  );
}

function AddFamilyForm({ member, revise, reviseError, from }: { member: Member | null; revise: FamilyMember | null; reviseError: string | null; from?: string }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const payers = payerOptions(member, member?.plans ?? []);
  const planId = revise?.planId || member?.planId || '';
  const plan = payers.flatMap((payer) => payer.plans).find((item) => item.planId === planId);
  const family = useFamilyMemberForm(member, revise, planId);
  const { form } = family;
  const flow = useAddFamily(member, revise, form.showServerError);
  // The eligibility flow (started from /confirm-plan-information) ends with 'I'm all set' / 'Add another'.
  const startedFromEligibility = from === paths.confirmPlanInformation.path;
  // Finishing goes back to the account details (started there, or from the eligibility page), else to the marketplace.
  const finishTarget = redirectTarget.get() === paths.accountDetails.path || startedFromEligibility ? paths.accountDetails.path : paths.marketplace.path;

  function submit(event: FormEvent) {
    event.preventDefault();
    form.touchAll();
    if (!form.valid) return;
    void flow.submit(family.request());
  }

  function addAnother() {
    flow.startOver();
    form.reset(blankFamilyValues());
  }

  function finish() {
    selectedDependent.set(null);
    // The account details (or marketplace) load again.
    void queryClient.invalidateQueries();
    navigate(finishTarget);
  }

  return (
    <div className={styles.page}>
      <Stepper
        steps={ADD_FAMILY_STEPS}
        current={3}
        done={stepsDone(ADD_FAMILY_STEPS, {
          providerChosen: member?.locationId != null,
          accountCreated: member !== null,
          eligibilityConfirmed: member?.eligibility?.status === 'active',
          membershipActive: member?.subscription?.status === 'active',
        })}
        label="Enrolment steps"
      />
      <header className={styles.header}>
        <h1>{flow.reviseMode ? 'Confirm eligibility' : 'Add a family member'}</h1>
        <p className={styles.muted}>
          {flow.reviseMode
            ? `Review ${revise ? fullName(revise) : 'your family member'}'s details as on their insurance card, then confirm their eligibility.`
            : 'Your family member shares your health plan. Enter their details as on their insurance card.'}
        </p>
      </header>
      {reviseError ? (
        <Alert tone="error" title={FAMILY_TEXTS.familyNotConfirmed}>
          {reviseError}
        </Alert>
      ) : null}
      <form className={styles.form} onSubmit={submit} noValidate>
        <FamilyMemberFieldsets family={family} planId={planId} planName={plan?.name ?? member?.planName ?? planId} />
        <FormActions className={styles.actions} onCancel={finish} submitLabel="Confirm Eligibility" disabled={!form.valid || flow.busy} />
      </form>

      <AddFamilyDialogs
        dialog={flow.dialog}
        onClose={() => flow.setDialog(null)}
        existsTitle={flow.existsTitle}
        message={flow.message}
        firstName={form.values.firstName.trim() || null}
        relation={form.values.relation || null}
        providerName={member?.location?.name ?? 'your provider'}
        startedFromEligibility={startedFromEligibility}
        withoutProvider={revise !== null && !revise.providerId}
        enrolling={flow.enrolling}
        onAddAnother={addAnother}
        onFinish={finish}
        onFindProvider={() => navigate(paths.marketplace.getHref({ selectProvider: 'true' }))}
        onEnrolSameProvider={flow.enrolSameProvider}
      />
    </div>
  );
}
