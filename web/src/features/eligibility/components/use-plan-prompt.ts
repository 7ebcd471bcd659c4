import { useEffect, useRef, useState } from 'react';
import type { ConfirmPlanDialogName } from './confirm-plan-dialogs';

interface PlanPromptInput {
  dialog: ConfirmPlanDialogName | null;
  openDialog: (dialog: ConfirmPlanDialogName | null) => void;
  planId: string;
  payerId: string;
  /** How many plans the chosen payer has. */
  planCount: number;
}

/**
 * The plan dialogs' flow: a single plan is auto-selected; with several, 'Please confirm your
 * plan' opens once per payer. 'Insert Your plan ID' goes back to the plan list when opened from it.
 */
export function usePlanPrompt({ dialog, openDialog, planId, payerId, planCount }: PlanPromptInput) {
  const [planIdFromList, setPlanIdFromList] = useState(false);
  const promptedPayer = useRef<string | null>(null);

  useEffect(() => {
    if (dialog !== null || planId || planCount < 2) return;
    const key = payerId || '-';
    if (promptedPayer.current === key) return;
    promptedPayer.current = key;
    openDialog('plans');
  }, [dialog, planId, payerId, planCount, openDialog]);

  return {
    openPlanId(fromList: boolean) {
      setPlanIdFromList(fromList);
      openDialog('plan-id');
    },
    backFromPlanId() {
      openDialog(planIdFromList ? 'plans' : null);
    },
    /** A plan found by ID settles that payer's question. */
    markPrompted(payer: string) {
      promptedPayer.current = payer;
    },
  };
}
