import { EmployerField, MemberIdField, PayerField, PlanField } from '@/components/forms/insurance-fields';
import { PersonFields, PhoneField, RelationField } from '@/components/forms/person-fields';
import { Button } from '@/components/ui/button';
import { InfoTip } from '@/components/ui/field';
import { errorText } from '@/lib/api-client';
import type { Relation } from '@/lib/member';
import { needsSubscriberId, relationOptions, SUBSCRIBER_TOOLTIP } from '../utils/eligibility-form';
import { PLAN_TEXTS } from './plan-dialogs';
import type { useEligibilityValues } from './use-eligibility-values';
import styles from './eligibility.module.css';

interface EligibilityFieldsetsProps {
  eligibility: ReturnType<typeof useEligibilityValues>;
  companyName: string;
  onInsertPlanId: () => void;
}

/** The eligibility form's fields: the person as on the insurance card, then the insurance. */
export function EligibilityFieldsets({ eligibility, companyName, onInsertPlanId }: EligibilityFieldsetsProps) {
  const { form, payers, payerFieldShown, planChoices, plans, plansNeeded } = eligibility;
  const { values, field } = form;
  const planLoadError = plans.isError && planChoices.length === 0 ? errorText(plans.error, 'Something went wrong. Please try again later.') : undefined;
  return (
    <>
      <fieldset className={styles.fieldset}>
        <legend>Personal information, as on your insurance card</legend>
        <PersonFields fields={{ firstName: field('firstName'), lastName: field('lastName'), dob: field('dob'), gender: field('gender') }} rowClassName={styles.row} ownDetails />
        <PhoneField inputMode="tel" autoComplete="tel-national" {...field('phone')} />
      </fieldset>

      <fieldset className={styles.fieldset}>
        <legend>Insurance</legend>
        <EmployerField employer={companyName} />
        <RelationField
          label="Relationship to subscriber"
          labelExtra={<InfoTip label="Subscriber" text={SUBSCRIBER_TOOLTIP} />}
          relations={relationOptions(false)}
          {...field('relation')}
          onChange={(relation) => form.set('relation', relation as Relation)}
        />
        <MemberIdField {...field('memberId')} />
        {payerFieldShown ? <PayerField payers={payers} {...field('payerId')} onChange={eligibility.choosePayer} /> : null}
        <PlanField
          placeholder={plans.isPending && plansNeeded ? 'Loading plans…' : 'Select your plan'}
          plans={planChoices.map((plan) => ({ value: plan.planId, label: plan.name }))}
          {...field('planId')}
          disabled={payerFieldShown && !values.payerId}
          error={form.shown('planId') ?? planLoadError}
        />
        <Button variant="quiet" size="sm" className={styles.planIdLink} onClick={onInsertPlanId}>
          {PLAN_TEXTS.insertPlanId}
        </Button>
        {needsSubscriberId(values.relation) ? <MemberIdField label="Employee's member ID" {...field('subscriberMemberId')} /> : null}
      </fieldset>
    </>
  );
}
