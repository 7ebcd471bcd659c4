import { useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { errorText, fieldError } from '@/lib/api-client';
import { queryKeys } from '@/api/query-keys';
import { type FamilyMember, type Member } from '@/lib/member';
import { selectedDependent } from '@/lib/storage';
import { MESSAGES } from '@/lib/validation';
import { useSetProvider } from '@/api/enrolment/set-provider';
import { useConfirmFamilyMember, useCreateFamilyMember, type FamilyConfirmResponse, type FamilyMemberRequest } from '@/api/family/family-members';
import { FAMILY_TEXTS, type FamilyDialog } from './add-family-dialogs';

/** Which dialog an answer that did not confirm the family member opens, by its code. */
export function notConfirmedDialog(answer: FamilyConfirmResponse): 'exists' | 'retry' | 'not-confirmed' {
  if (answer.code === 'member_exists') return 'exists';
  if (answer.code === 'eligibility_unavailable' || answer.eligibility?.err?.chcDown) return 'retry';
  return 'not-confirmed';
}

/**
 * The add-family calls and the dialog each answer opens: create the family member (once: a
 * retry after a failed confirmation only confirms again), confirm their eligibility, then enrol
 * them with the subscriber's provider on request. In revise mode only the confirmation is sent.
 */
export function useAddFamily(member: Member | null, revise: FamilyMember | null, showFieldError: (failure: { field: string; message: string }) => boolean = () => false) {
  const queryClient = useQueryClient();
  const create = useCreateFamilyMember();
  const confirm = useConfirmFamilyMember();
  const enrol = useSetProvider();
  const [dialog, setDialog] = useState<FamilyDialog>(null);
  const [message, setMessage] = useState('');
  const [existsTitle, setExistsTitle] = useState<string>(FAMILY_TEXTS.accountExists);
  // A stored family member confirmed again from the family panel: only confirm/info is sent.
  const [reviseMode, setReviseMode] = useState(revise !== null);
  // Kept after a failed confirmation (or in revise mode), so a retry only confirms again.
  const [createdId, setCreatedId] = useState<number | null>(revise?.id ?? null);
  const inFlight = useRef(false);
  const busy = create.isPending || confirm.isPending || enrol.isPending;

  function showFailure(next: 'enrol-error' | 'confirm-error', failure: unknown) {
    // A refusal about one field (a date of birth in the future) shows at that field.
    const onField = fieldError(failure);
    if (next === 'confirm-error' && onField && showFieldError(onField)) {
      setDialog(null);
      return;
    }
    setMessage(errorText(failure, MESSAGES.somethingWrong));
    setDialog(next);
  }

  function showCreateFailure(failure: unknown) {
    const onField = fieldError(failure);
    if (onField && showFieldError(onField)) {
      setDialog(null);
      return;
    }
    const code = (failure as { code?: unknown } | null)?.code;
    setExistsTitle(code === 'member_exists' ? FAMILY_TEXTS.accountExists : MESSAGES.somethingWrong);
    setMessage(errorText(failure, MESSAGES.somethingWrong));
    setDialog('exists');
  }

  function showNotConfirmed(answer: FamilyConfirmResponse) {
    const next = notConfirmedDialog(answer);
    if (next === 'exists') {
      setExistsTitle(FAMILY_TEXTS.accountExists);
      setMessage(answer.message || FAMILY_TEXTS.accountExists);
    } else if (next === 'not-confirmed') {
      // Not on this plan is worth saying; wrong data only needs the prompt.
      setMessage(answer.code === 'not_eligible_on_plan' && answer.message ? answer.message : '');
    }
    setDialog(next);
  }

  /** Creates (unless already created) and confirms the family member in `body`. */
  async function submit(body: FamilyMemberRequest) {
    if (busy || inFlight.current) return;
    inFlight.current = true;
    try {
      setDialog('checking');
      let id = createdId;
      if (id === null) {
        try {
          id = (await create.mutateAsync(body)).id;
          setCreatedId(id);
        } catch (failure) {
          showCreateFailure(failure);
          return;
        }
      }
      let answer: FamilyConfirmResponse;
      try {
        answer = await confirm.mutateAsync({ id, body });
      } catch (failure) {
        showFailure('confirm-error', failure);
        return;
      }
      void queryClient.invalidateQueries({ queryKey: queryKeys.member.all });
      if (!answer.eligible) {
        showNotConfirmed(answer);
        return;
      }
      if (reviseMode) {
        setDialog('plan-confirmed');
        return;
      }
      setCreatedId(null);
      selectedDependent.set(id);
      const covered = answer.pediatric?.covered;
      if (!member?.providerId || !member.locationId) setDialog('added-no-provider');
      else if (covered === 0 || covered === false) setDialog('pediatric');
      else setDialog('added');
    } finally {
      inFlight.current = false;
    }
  }

  /** 'Enroll in the same DPC as main account': the family member just added gets the subscriber's clinic. */
  function enrolSameProvider() {
    const id = selectedDependent.get();
    if (!id) {
      setMessage(FAMILY_TEXTS.noDependent);
      setDialog('enrol-error');
      return;
    }
    if (!member?.providerId || !member.locationId) {
      selectedDependent.set(null);
      setMessage(FAMILY_TEXTS.providerNotFound);
      setDialog('enrol-error');
      return;
    }
    enrol.mutate(
      { dependentId: id, providerId: member.providerId, locationId: member.locationId },
      {
        onSuccess: () => {
          void queryClient.invalidateQueries({ queryKey: queryKeys.member.all });
          setDialog('enrolled');
        },
        onError: (failure) => {
          selectedDependent.set(null);
          showFailure('enrol-error', failure);
        },
      },
    );
  }

  /** Starts over for another family member. */
  function startOver() {
    selectedDependent.set(null);
    setCreatedId(null);
    setReviseMode(false);
    setDialog(null);
  }

  return { submit, enrolSameProvider, startOver, busy, enrolling: enrol.isPending, dialog, setDialog, message, existsTitle, reviseMode };
}
