import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Card } from '@/components/ui/card';
import { paths } from '@/config/paths';
import { errorText } from '@/lib/api-client';
import { payerOptions } from '@/lib/insurance';
import { personalInfoBody, useMemberInfo, type Member } from '@/lib/member';
import { MESSAGES } from '@/lib/validation';
import { usePlans } from '@/api/eligibility/get-plans';
import { useUpdatePersonalInfo, type SavedMember } from '@/api/account/personal-info';
import { formValues, memberBody } from '../utils/member-form-values';
import { WithMember } from './account-details-page';
import { BackLink, cancelTarget, SavedDialog } from './edit-page-parts';
import { MemberForm } from './member-form';
import styles from './account.module.css';

/** The clinic is to call about the first visit: a pending membership at a chosen clinic (the clinic is told of each new member). */
function firstVisitPending(member: Member): boolean {
  return member.subscription?.status === 'pending' && member.location !== null;
}

/** /account/edit-subscriber (2.18). */
export function EditSubscriberPage() {
  const navigate = useNavigate();
  const save = useUpdatePersonalInfo();
  const member = useMemberInfo();
  // The member info's payers name the plans; the plans call is only needed without them.
  const plans = usePlans(member.data !== undefined && !(member.data.payers && member.data.payers.length > 0));
  const [saved, setSaved] = useState<SavedMember | null>(null);
  const [error, setError] = useState<string | null>(null);
  return (
    <WithMember>
      {(member) => (
        <div className={`${styles.page} ${styles.narrow}`}>
          <BackLink to={cancelTarget()} />
          <h1>Edit subscriber information</h1>
          {error ? <Alert tone="error">{error}</Alert> : null}
          <Card>
            <MemberForm
              fields={['relation', 'firstName', 'lastName', 'dob', 'gender', 'employer', 'memberId', 'planId']}
              initial={formValues(member)}
              planOptions={payerOptions(member, plans.data ?? [])
                .flatMap((payer) => payer.plans)
                .map((plan) => ({ value: plan.planId, label: plan.name }))}
              submitLabel="Save Information"
              busy={save.isPending}
              onCancel={() => navigate(cancelTarget())}
              onSubmit={(values) => {
                setError(null);
                save.mutate(personalInfoBody(member, memberBody(values)), { onSuccess: setSaved, onError: (failure) => setError(errorText(failure, MESSAGES.somethingWrong)) });
              }}
            />
          </Card>
          <SavedDialog open={saved !== null} check={saved?.eligibilityCheck ?? null} onDone={() => navigate(paths.accountDetails.path)}>
            <p>Your information is saved.</p>
            {firstVisitPending(saved ?? member) ? <p>A representative from {(saved ?? member).location!.name} will reach out to schedule your first appointment.</p> : null}
          </SavedDialog>
        </div>
      )}
    </WithMember>
  );
}
