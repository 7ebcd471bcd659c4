import { useEffect, useState } from 'react';
import { useNavigate, type NavigateOptions } from 'react-router';
import { useHeldNavigation } from '@/lib/navigation-guard';

/**
 * Leaving with unsaved changes asks first (spec: "Leaving early asks for confirmation"): while
 * `guarded`, a route change calls `onBlocked` (which opens the cancel dialog) and a reload or
 * tab close gets the browser's prompt. `leave` goes without asking.
 */
export function useLeaveGuard(guarded: boolean, onBlocked: () => void) {
  const navigate = useNavigate();
  const [leaving, setLeaving] = useState(false);
  const blocker = useHeldNavigation((currentPathname, nextPathname) => guarded && !leaving && currentPathname !== nextPathname);

  useEffect(() => {
    if (blocker.state === 'blocked') onBlocked();
  }, [blocker.state, onBlocked]);

  useEffect(() => {
    if (!guarded) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [guarded]);

  /** Goes to `to` without asking. */
  function leave(to: string, options?: NavigateOptions) {
    setLeaving(true);
    // Let the blocker see `leaving` before navigating.
    window.setTimeout(() => navigate(to, options), 0);
  }

  /** "No, stay": a blocked navigation is dropped. */
  function stay() {
    blocker.reset();
  }

  /** "Yes, cancel": a blocked navigation goes on; otherwise the page leaves for `fallback`. */
  function confirmLeave(fallback: string) {
    if (blocker.state === 'blocked') {
      setLeaving(true);
      blocker.proceed();
    } else leave(fallback);
  }

  return { leave, stay, confirmLeave };
}
