import { useEffect, useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
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
    <Dialog
      open={open}
      title={PLAN_TEXTS.confirmPlan}
      onClose={onClose}
      footer={
        <>
          <Button variant="secondary" onClick={onInsertId}>
            {PLAN_TEXTS.notListed}
          </Button>
          <Button disabled={!choice} onClick={() => onChoose(choice)}>
            Confirm
          </Button>
        </>
      }
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
    </Dialog>
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
    <Dialog
      open={open}
      title={PLAN_TEXTS.insertPlanId}
      onClose={onBack}
      footer={
        <>
          <Button variant="secondary" onClick={onBack}>
            Back
          </Button>
          <Button disabled={!valid || lookup.isPending} onClick={() => pull()}>
            {PLAN_TEXTS.pullBenefits}
          </Button>
        </>
      }
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
    </Dialog>
  );
}
