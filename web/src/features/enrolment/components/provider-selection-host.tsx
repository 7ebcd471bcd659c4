import { useEffect, useRef } from 'react';
import type { ClinicTarget } from '../utils/select-provider';
import { useProviderSelection } from './use-provider-selection';

interface ProviderSelectionHostProps {
  /** The Select that fetched this code: run once, as soon as it is here. */
  first: ClinicTarget;
  /** The flow's own select, for the Selects that follow. */
  onReady: (select: (target: ClinicTarget) => void) => void;
  onBusy: (busy: boolean) => void;
}

/** The enrolment flow of useLazyProviderSelection, in its own download: runs the first Select and renders the dialogs. */
export function ProviderSelectionHost({ first, onReady, onBusy }: ProviderSelectionHostProps) {
  const { select, busy, dialogs } = useProviderSelection({ employerChosen: true });
  const started = useRef(false);
  useEffect(() => onReady(select), [select, onReady]);
  useEffect(() => onBusy(busy), [busy, onBusy]);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    select(first);
  }, [select, first]);
  return dialogs;
}
