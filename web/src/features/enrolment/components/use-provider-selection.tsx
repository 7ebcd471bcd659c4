import { lazy, Suspense, useCallback, useRef, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { paths } from '@/config/paths';
import { useMemberState, type MemberState } from '@/lib/member-state';
import { useSignedIn } from '@/lib/session';
import { selectedDependent, selectedProvider } from '@/lib/storage';
import { postEnrollmentQueryOptions, type PostEnrollment } from '../api/get-post-enrollment';
import { useSetProvider } from '../api/set-provider';
import {
  afterEnrolment,
  ENROLMENT_TEXTS,
  enrolledClinicName,
  enrolledDialog,
  refusalDialog,
  startSelection,
  wasProviderChange,
  type ClinicTarget,
} from '../utils/select-provider';
import type { FlowDialog } from './enrolment-dialogs';

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

/**
 * Selecting a clinic (marketplace spec, section 4): employer first; signed out, the clinic is
 * stored and the visitor registers; signed in, the cannot-enrol dialog, the change-provider
 * confirmation or set provider, then /confirm-plan-information or the clinic's post-enrolment
 * step and the all-set dialogs. One call at a time (a double-submit guard).
 */
export function useProviderSelection({ employerChosen, onEmployerNeeded }: Options): ProviderSelection {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const signedIn = useSignedIn();
  const member = useMemberState();
  const setProvider = useSetProvider();
  const inFlight = useRef(false);
  const [busy, setBusy] = useState(false);
  const [dialog, setDialog] = useState<FlowDialog | null>(null);

  const enrol = useCallback(
    async (target: ClinicTarget, actedOn: MemberState, change: boolean) => {
      if (inFlight.current || target.locationId === null) return;
      inFlight.current = true;
      setBusy(true);
      try {
        const answer = await setProvider.mutateAsync({ dependentId: actedOn.dependentId, providerId: target.providerId, locationId: target.locationId, change });
        if (afterEnrolment(answer, actedOn).kind === 'confirm-plan') {
          navigate(paths.confirmPlanInformation.path);
          return;
        }
        let post: PostEnrollment;
        try {
          post = await queryClient.fetchQuery(postEnrollmentQueryOptions(target.providerId, target.locationId));
        } catch (failure) {
          console.warn('post-enrolment lookup failed', failure);
          navigate(paths.accountDetails.path, { state: { message: ENROLMENT_TEXTS.general } });
          return;
        }
        setDialog(enrolledDialog(post, { member: actedOn, clinic: enrolledClinicName(answer, target), changed: wasProviderChange(answer, change) }));
      } catch (error) {
        const refusal = refusalDialog(error, actedOn);
        if (refusal.clearDependent) selectedDependent.set(null);
        setDialog(refusal.dialog.kind === 'confirm-change' ? { ...refusal.dialog, target, actedOn } : refusal.dialog);
      } finally {
        inFlight.current = false;
        setBusy(false);
      }
    },
    [navigate, queryClient, setProvider],
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
          setDialog({ kind: 'cannot-enrol', title: `You have an active membership with ${start.clinic}`, supportEmail: null });
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

  const close = useCallback(() => setDialog(null), []);

  const finish = useCallback(
    (to: 'membership' | 'account') => {
      setDialog(null);
      if (to === 'account') {
        // The family member is enrolled: the next search acts on the subscriber again.
        selectedDependent.set(null);
        navigate(`${paths.accountDetails.path}?panel=family`);
      } else navigate(paths.membership.path);
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
