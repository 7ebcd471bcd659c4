import { useEffect, useMemo, useState } from 'react';
import { useFormFields } from '@/components/forms/use-form-fields';
import { initialPayerAndPlan, payerOptions, planAfterPayerChange, plansOf, showsPayerField } from '@/lib/insurance';
import type { Member, Plan } from '@/lib/member';
import { displayPhone, isoToUsDate } from '@/lib/validation';
import { usePlans } from '@/api/eligibility/get-plans';
import { eligibilityErrors, withPulledPlans, type EligibilityValues } from '../utils/eligibility-form';

function initialValues(member: Member | null): EligibilityValues {
  return {
    firstName: member?.firstName ?? '',
    lastName: member?.lastName ?? '',
    dob: isoToUsDate(member?.dob),
    gender: member?.gender ?? '',
    phone: displayPhone(member?.phone),
    relation: member?.subscriberRelation ?? 'Self',
    memberId: member?.memberId ?? '',
    payerId: member?.payerId ?? '',
    planId: member?.planId ?? '',
    subscriberMemberId: member?.subscriberMemberId ?? '',
  };
}

/**
 * The eligibility form's values with its insurance choices: the employer's payers and plans
 * (loaded when the member info does not name them), plans found by plan ID, and the plans of the
 * chosen payer.
 */
export function useEligibilityValues(member: Member | null) {
  const plansNeeded = member !== null && !(member.payers && member.payers.length > 0);
  const plans = usePlans(plansNeeded);
  // Plans found through 'Insert Your plan ID' join the employer's list.
  const [pulledPlans, setPulledPlans] = useState<Plan[]>([]);
  const payers = useMemo(() => withPulledPlans(payerOptions(member, plans.data ?? []), pulledPlans, member?.payerId ?? ''), [member, plans.data, pulledPlans]);
  const payerFieldShown = showsPayerField(payers);
  const form = useFormFields<EligibilityValues>(() => initialValues(member), (values) => eligibilityErrors(values, { payerFieldShown }));
  const { setValues } = form;

  // Once the payers are known, preselect a sole payer and its sole plan (keeping stored choices that still apply).
  useEffect(() => {
    if (payers.length === 0) return;
    setValues((current) => {
      const { payerId, planId } = initialPayerAndPlan(payers, current);
      return current.payerId === payerId && current.planId === planId ? current : { ...current, payerId, planId };
    });
  }, [payers, setValues]);

  const planChoices = payerFieldShown ? plansOf(payers, form.values.payerId) : (payers[0]?.plans ?? []);

  /** A plan confirmed in the plan list. */
  function choosePlan(planId: string) {
    form.change({ planId });
    form.touch('planId');
  }

  /** A plan found by its ID joins its payer's plans and is chosen; returns that payer. */
  function choosePulledPlan(plan: Plan): string {
    const payerId = plan.payerId || form.values.payerId || payers[0]?.payerId || member?.payerId || '';
    setPulledPlans((current) => [...current.filter((item) => item.planId !== plan.planId), { ...plan, payerId }]);
    form.change({ payerId, planId: plan.planId });
    form.touch('planId');
    return payerId;
  }

  /** Another payer: its sole plan is chosen, else the plan is asked for again. */
  function choosePayer(payerId: string) {
    form.change({ payerId, planId: planAfterPayerChange(payers, payerId) });
  }

  return { form, plans, plansNeeded, payers, payerFieldShown, planChoices, choosePlan, choosePulledPlan, choosePayer };
}
