import { useCallback, useRef, useState } from 'react';
import type { Employer } from '@/api/market/types';

/**
 * Searching and opening clinics need an employer: `requireEmployer` runs an action now when one
 * is chosen, otherwise opens the employer-needed prompt and runs it once the prompt is answered.
 */
export function useEmployerGate(employer: Employer | null, setEmployer: (employer: Employer) => void) {
  // What to do once the employer-needed prompt gets an answer.
  const pendingAction = useRef<(() => void) | null>(null);
  const [promptOpen, setPromptOpen] = useState(false);

  const requireEmployer = useCallback(
    (action: () => void) => {
      if (employer) {
        action();
        return;
      }
      pendingAction.current = action;
      setPromptOpen(true);
    },
    [employer],
  );

  /** The prompt was closed without a choice: the action is dropped. */
  function cancel() {
    pendingAction.current = null;
    setPromptOpen(false);
  }

  function choose(chosen: Employer) {
    setEmployer(chosen);
    setPromptOpen(false);
    const action = pendingAction.current;
    pendingAction.current = null;
    // Let the employer reach state before the action reads it.
    if (action) window.setTimeout(action, 0);
  }

  return { requireEmployer, promptOpen, cancel, choose };
}
