import { lazy, Suspense, useCallback, useRef, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { paths } from '@/config/paths';
import { hardNavigation } from '@/lib/hard-navigation';
import { useMemberState, type MemberState } from '@/lib/member-state';
import { useSignedIn } from '@/lib/session';
import { addFamilyChoice, selectedDependent, selectedProvider } from '@/lib/storage';
import { postEnrollmentQueryOptions, type PostEnrollment } from '@/api/enrolment/get-post-enrollment';
import { useSetProvider, type SetProviderAnswer } from '@/api/enrolment/set-provider';
import {
  afterEnrolment,
  ENROLMENT_TEXTS,
  enrolledClinicName,
  enrolledDialog,
  isRetryableFailure,
  refusalDialog,
  startSelection,
  wasProviderChange,
  type ClinicTarget,
} from '../utils/select-provider';
import type { FinishTarget, FlowDialog } from './enrolment-dialogs';

// The dialogs are fetched the first time one opens, keeping them out of the first download.
const EnrolmentDialogs = lazy(() => import('./enrolment-dialogs'));

export interface ProviderSelection {
  /** Select on a card or a profile: runs the spec's rules for the member acted on. */
  select: (target: ClinicTarget) => void;
  /** True while a set-provider call is in flight (Select buttons are disabled meanwhile). */
  busy: boolean;
  /** The flow's dialogs; render once next to the page. */
  dialogs: ReactNode;
}

interface Options {
  /** Whether an employer is chosen; without one, `onEmployerNeeded` runs instead. */
  employerChosen: boolean;
  onEmployerNeeded?: () => void;
}

/** What Retry repeats and what giving up does, for the error modal that is open. */
interface RetryAction {
  retry: () => void;
  giveUp: () => void;
}

/**
 * Selecting a clinic (marketplace spec, section 4): employer first; signed out, the clinic is
 * stored and the visitor registers; signed in, the cannot-enrol dialog, the change-provider
 * confirmation or set provider, then /confirm-plan-information or the clinic's post-enrolment
 * step and the all-set dialogs. One call at a time (a double-submit guard). A server failure or
 * no answer (set provider or the post-enrolment lookup) opens the error modal whose Retry
 * repeats the call.
 */
export function useProviderSelection({ employerChosen, onEmployerNeeded }: Options): ProviderSelection {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const signedIn = useSignedIn();
  const member = useMemberState();
  const setProvider = useSetProvider();
  const inFlight = useRef(false);
  const retryAction = useRef<RetryAction | null>(null);
  const [busy, setBusy] = useState(false);
  const [dialog, setDialog] = useState<FlowDialog | null>(null);

  /** Runs one step of the flow under the double-submit guard. */
  const guarded = useCallback(async (step: () => Promise<void>) => {
    if (inFlight.current) return;
    inFlight.current = true;
    setBusy(true);
    try {
      await step();
    } finally {
      inFlight.current = false;
      setBusy(false);
    }
  }, []);

  const offerRetry = useCallback((action: RetryAction) => {
    retryAction.current = action;
    setDialog({ kind: 'retry' });
  }, []);

  /** The clinic's post-enrolment step: Connect me now, or the all-set dialogs. */
  const postEnrolment = useCallback(
    async (answer: SetProviderAnswer, target: ClinicTarget, actedOn: MemberState, change: boolean) => {
      let post: PostEnrollment;
      try {
        post = await queryClient.fetchQuery(postEnrollmentQueryOptions(target.providerId, target.locationId));
      } catch (failure) {
        console.warn('post-enrolment lookup failed', failure);
        // The spec's failure path: the account details, flagged.
        const flagged = () => navigate(paths.accountDetails.path, { state: { message: ENROLMENT_TEXTS.general } });
        if (isRetryableFailure(failure)) offerRetry({ retry: () => void guarded(() => postEnrolment(answer, target, actedOn, change)), giveUp: flagged });
        else flagged();
        return;
      }
      setDialog(enrolledDialog(post, { member: actedOn, clinic: enrolledClinicName(answer, target), changed: wasProviderChange(answer, change) }));
    },
    [navigate, queryClient, guarded, offerRetry],
  );

  const enrol = useCallback(
    (target: ClinicTarget, actedOn: MemberState, change: boolean): Promise<void> =>
      guarded(async () => {
        if (target.locationId === null) return;
        let answer: SetProviderAnswer;
        try {
          answer = await setProvider.mutateAsync({ dependentId: actedOn.dependentId, providerId: target.providerId, locationId: target.locationId, change });
        } catch (error) {
          if (isRetryableFailure(error)) {
            offerRetry({
              retry: () => void enrol(target, actedOn, change),
              // Giving up is a set-provider failure: the selected family member is cleared.
              giveUp: () => {
                if (actedOn.dependentId !== null) selectedDependent.set(null);
              },
            });
            return;
          }
          const refusal = refusalDialog(error, actedOn);
          if (refusal.clearDependent) selectedDependent.set(null);
          setDialog(refusal.dialog.kind === 'confirm-change' ? { ...refusal.dialog, target, actedOn } : refusal.dialog);
          return;
        }
        const next = afterEnrolment(answer, actedOn);
        if (next.kind === 'confirm-plan') {
          if (next.reload) hardNavigation.assign(paths.confirmPlanInformation.path);
          else navigate(paths.confirmPlanInformation.path);
          return;
        }
        await postEnrolment(answer, target, actedOn, change);
      }),
    [guarded, setProvider, offerRetry, navigate, postEnrolment],
  );

  const select = useCallback(
    (target: ClinicTarget) => {
      if (inFlight.current) return;
      const start = startSelection({ target, employerChosen, signedIn, member });
      switch (start.kind) {
        case 'employer-needed':
          onEmployerNeeded?.();
          return;
        case 'non-provider':
          setDialog({ kind: 'non-provider', message: ENROLMENT_TEXTS.nonProvider });
          return;
        case 'register':
          selectedProvider.set({ providerId: target.providerId, locationId: target.locationId!, name: target.name, locationName: target.locationName });
          navigate(paths.register.path);
          return;
        case 'wait':
          return;
        case 'cannot-enrol':
          setDialog({ kind: 'cannot-enrol', title: start.title, supportEmail: null });
          return;
        case 'confirm-change':
          setDialog({ kind: 'confirm-change', currentClinic: start.currentClinic, target, actedOn: member! });
          return;
        case 'set-provider':
          void enrol(target, member!, false);
      }
    },
    [employerChosen, signedIn, member, onEmployerNeeded, navigate, enrol],
  );

  const close = useCallback(() => {
    if (dialog?.kind === 'retry') {
      const action = retryAction.current;
      retryAction.current = null;
      setDialog(null);
      action?.giveUp();
      return;
    }
    setDialog(null);
  }, [dialog]);

  const retry = useCallback(() => {
    const action = retryAction.current;
    retryAction.current = null;
    setDialog(null);
    action?.retry();
  }, []);

  const finish = useCallback(
    (to: FinishTarget) => {
      setDialog(null);
      switch (to) {
        case 'account':
          // The family member is enrolled: the next search acts on the subscriber again.
          selectedDependent.set(null);
          navigate(`${paths.accountDetails.path}?panel=family`);
          return;
        case 'add-family-question':
          setDialog({ kind: 'add-family' });
          return;
        case 'add-family':
          addFamilyChoice.set('yes');
          navigate(paths.addFamilyMember.path);
          return;
        case 'membership-all-set':
          addFamilyChoice.set('no');
          navigate(paths.membership.path);
          return;
        case 'membership':
          navigate(paths.membership.path);
      }
    },
    [navigate],
  );

  const dialogs =
    dialog === null ? null : (
      <Suspense fallback={null}>
        <EnrolmentDialogs
          dialog={dialog}
          busy={busy}
          onClose={close}
          onRetry={retry}
          onFinish={finish}
          onConfirmChange={(confirmed) => {
            setDialog(null);
            void enrol(confirmed.target, confirmed.actedOn, true);
          }}
        />
      </Suspense>
    );

  return { select, busy, dialogs };
}
