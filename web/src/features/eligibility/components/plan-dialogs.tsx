import { useEffect, useId, useState, type FormEvent } from 'react';
import { ActionDialog } from '@/components/ui/action-dialog';
import { TextField } from '@/components/ui/field';
import type { Plan } from '@/lib/member';
import { planLookupError, usePlanLookup } from '@/api/eligibility/get-plan';
import { PLAN_ID_MAX_LENGTH, planIdError } from '../utils/eligibility-form';
import styles from './eligibility.module.css';

export const PLAN_TEXTS = {
  confirmPlan: 'Please confirm your plan',
  insertPlanId: 'Insert Your plan ID',
  pullBenefits: 'Pull Benefits',
  notListed: 'My plan is not listed',
} as const;

/** 'Please confirm your plan': the employer's plans when there are several; the member picks one. */
export function PlanListDialog({
  open,
  plans,
  selected,
  onChoose,
  onInsertId,
  onClose,
}: {
  open: boolean;
  plans: Plan[];
  selected: string;
  onChoose: (planId: string) => void;
  onInsertId: () => void;
  onClose: () => void;
}) {
  const [choice, setChoice] = useState(selected);
  const name = useId();
  useEffect(() => {
    if (open) setChoice(selected);
  }, [open, selected]);

  return (
    <ActionDialog
      open={open}
      title={PLAN_TEXTS.confirmPlan}
      onClose={onClose}
      secondary={{ label: PLAN_TEXTS.notListed, onClick: onInsertId }}
      primary={{ label: 'Confirm', disabled: !choice, onClick: () => onChoose(choice) }}
    >
      <fieldset className={styles.planList}>
        <legend className={styles.muted}>Choose the health plan on your insurance card.</legend>
        {plans.map((plan) => (
          <label key={plan.planId} className={styles.planOption}>
            <input type="radio" name={name} value={plan.planId} checked={choice === plan.planId} onChange={() => setChoice(plan.planId)} />
            <span>
              <strong>{plan.name}</strong>
              <span className={styles.muted}> ({plan.planId})</span>
            </span>
          </label>
        ))}
      </fieldset>
    </ActionDialog>
  );
}

/**
 * 'Insert Your plan ID': a Plan ID field, Pull Benefits (disabled until the ID is valid) and
 * Back. A failed lookup shows the server's `err` text and clears the field.
 */
export function PlanIdDialog({ open, onBack, onFound }: { open: boolean; onBack: () => void; onFound: (plan: Plan) => void }) {
  const lookup = usePlanLookup();
  const [planId, setPlanId] = useState('');
  const [touched, setTouched] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const { reset } = lookup;
  useEffect(() => {
    if (!open) return;
    setPlanId('');
    setTouched(false);
    setFailure(null);
    reset();
  }, [open, reset]);

  const error = planIdError(planId);
  const valid = error === null;

  function pull(event?: FormEvent) {
    event?.preventDefault();
    setTouched(true);
    if (!valid || lookup.isPending) return;
    setFailure(null);
    lookup.mutate(planId.trim(), {
      onSuccess: (plan) => onFound(plan),
      onError: (failed) => {
        setFailure(planLookupError(failed));
        setPlanId('');
        setTouched(false);
      },
    });
  }

  return (
    <ActionDialog
      open={open}
      title={PLAN_TEXTS.insertPlanId}
      onClose={onBack}
      secondary={{ label: 'Back', onClick: onBack }}
      primary={{ label: PLAN_TEXTS.pullBenefits, disabled: !valid || lookup.isPending, onClick: () => pull() }}
    >
      <form className={styles.dialogForm} onSubmit={pull} noValidate>
        <TextField
          label="Plan ID"
          value={planId}
          maxLength={PLAN_ID_MAX_LENGTH}
          autoComplete="off"
          onChange={(value) => {
            setPlanId(value);
            setFailure(null);
          }}
          onBlur={() => setTouched(true)}
          error={failure ?? (touched && planId ? error : null)}
        />
      </form>
    </ActionDialog>
  );
}
