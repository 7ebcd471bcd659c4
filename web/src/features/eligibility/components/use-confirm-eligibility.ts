import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { groupIdFor } from '@/lib/insurance';
import { queryKeys } from '@/api/query-keys';
import { type Member, type Payer, type Relation } from '@/lib/member';
import { setAccessToken } from '@/lib/session';
import { usDateToIso } from '@/lib/validation';
import { useConfirmInfo } from '@/api/eligibility/confirm-info';
import { postEnrollmentQueryOptions } from '@/api/enrolment/get-post-enrollment';
import type { ConfirmInfoResponse, SubscriberInfo } from '@/api/eligibility/types';
import { ELIGIBILITY_TEXTS } from '@/lib/eligibility-texts';
import { eligibilityOutcome, needsSubscriberId, type EligibilityOutcome, type EligibilityValues } from '../utils/eligibility-form';
import type { ConfirmPlanDialogName } from './confirm-plan-dialogs';

interface ConfirmEligibilityInput {
  member: Member | null;
  values: EligibilityValues;
  valid: boolean;
  payers: Payer[];
  /** The provider chosen before signing up (or stored on the account). */
  providerId: number | null;
  openDialog: (dialog: ConfirmPlanDialogName | null) => void;
  /** Shows a refusal about one field at that field; false when the form has no such field. */
  showFieldError: (failure: { field: string; message: string }) => boolean;
}

/**
 * Confirm Eligibility: sends confirm/info (with the subscriber's details on the second try) and
 * opens the dialog its answer calls for; a confirmed answer stores the new token and looks up the
 * provider's own portal (post-enrolment).
 */
export function useConfirmEligibility({ member, values, valid, payers, providerId, openDialog, showFieldError }: ConfirmEligibilityInput) {
  const queryClient = useQueryClient();
  const confirm = useConfirmInfo();
  const [message, setMessage] = useState('');
  const [confirmed, setConfirmed] = useState<ConfirmInfoResponse | null>(null);
  const [redirect, setRedirect] = useState<string | null>(null);
  const [subscriberSent, setSubscriberSent] = useState(false);

  function showError(text: string) {
    setMessage(text);
    openDialog('error');
  }

  function applyOutcome(outcome: EligibilityOutcome) {
    switch (outcome.kind) {
      case 'confirmed':
        void onConfirmed(outcome.answer);
        return;
      case 'subscriber-info':
        openDialog('subscriber');
        return;
      case 'could-not-confirm':
      case 'not-eligible':
      case 'account-exists':
      case 'retry':
      case 'system-down':
      case 'no-data':
        openDialog(outcome.kind);
        return;
      case 'field':
        if (showFieldError(outcome)) openDialog(null);
        else showError(outcome.message);
        return;
      case 'error':
        showError(outcome.message);
    }
  }

  async function onConfirmed(answer: ConfirmInfoResponse) {
    if (answer.newAccessToken) setAccessToken(answer.newAccessToken);
    setConfirmed(answer);
    await queryClient.invalidateQueries({ queryKey: queryKeys.member.all });
    const selfWithFamily = Boolean(answer.hasFamily) && values.relation === 'Self';
    if (answer.nextStep === 'selectDPC') {
      openDialog('select-provider');
      return;
    }
    if (answer.nextStep !== 'complete') {
      console.warn('unexpected next step after eligibility', answer.nextStep);
      showError(ELIGIBILITY_TEXTS.confirmError);
      return;
    }
    const enrolledProvider = answer.providerId ?? providerId;
    if (enrolledProvider) {
      try {
        const post = await queryClient.fetchQuery(postEnrollmentQueryOptions(enrolledProvider));
        const link = post.postMemberEnrollment?.redirect;
        if (link) {
          setRedirect(link);
          openDialog('connect');
          return;
        }
      } catch (failure) {
        console.warn('post-enrolment lookup failed', failure);
      }
    }
    openDialog(selfWithFamily ? 'add-family' : 'enrolled');
  }

  /** Sends the form; `subscriber` is the subscriber dialog's answer. False when nothing was sent. */
  function submit(subscriber?: SubscriberInfo): boolean {
    if (!valid || confirm.isPending || !member) return false;
    const dob = usDateToIso(values.dob)!;
    const payerId = values.payerId || payers[0]?.payerId || '';
    openDialog('checking');
    if (subscriber) setSubscriberSent(true);
    const context = { relation: values.relation, subscriberSent: Boolean(subscriber) || subscriberSent };
    confirm.mutate(
      {
        firstName: values.firstName.trim(),
        lastName: values.lastName.trim(),
        dob,
        gender: values.gender,
        memberId: values.memberId.trim(),
        planId: values.planId,
        payerId,
        groupId: groupIdFor(member.employer?.groups, payers, payerId, values.planId) || member.groupId || '',
        phone: values.phone.trim(),
        subscriberRelation: values.relation as Relation,
        subscriberMemberId: needsSubscriberId(values.relation) ? values.subscriberMemberId.trim() : undefined,
        employerId: member.employerId,
        subscriber,
      },
      {
        onSuccess: (answer) => applyOutcome(eligibilityOutcome({ answer }, context)),
        onError: (error) => applyOutcome(eligibilityOutcome({ error }, context)),
      },
    );
    return true;
  }

  return { submit, pending: confirm.isPending, message, confirmed, redirect };
}
