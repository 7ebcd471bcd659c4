import { Suspense, useCallback, useRef, useState } from 'react';
import { lazyNamed } from '@/lib/lazy';
import type { ClinicTarget } from '../utils/select-provider';
import type { ProviderSelection } from './use-provider-selection';

// The enrolment rules and calls are fetched on the first Select, keeping them out of the first screen.
const ProviderSelectionHost = lazyNamed(() => import('./provider-selection-host'), 'ProviderSelectionHost');

/**
 * useProviderSelection (an employer is chosen) whose code loads on the first Select: that Select
 * runs once the code is here, and the Select buttons wait meanwhile.
 */
export function useLazyProviderSelection(): ProviderSelection {
  const [first, setFirst] = useState<ClinicTarget | null>(null);
  const [ready, setReady] = useState(false);
  const [busy, setBusy] = useState(false);
  const loadedSelect = useRef<((target: ClinicTarget) => void) | null>(null);

  const select = useCallback((target: ClinicTarget) => {
    if (loadedSelect.current) loadedSelect.current(target);
    else setFirst((current) => current ?? target);
  }, []);
  const onReady = useCallback((loaded: (target: ClinicTarget) => void) => {
    loadedSelect.current = loaded;
    setReady(true);
  }, []);

  const dialogs =
    first === null ? null : (
      <Suspense fallback={null}>
        <ProviderSelectionHost first={first} onReady={onReady} onBusy={setBusy} />
      </Suspense>
    );
  return { select, busy: busy || (first !== null && !ready), dialogs };
}
