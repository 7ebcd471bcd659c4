import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Card } from '@/components/ui/card';
import { paths } from '@/config/paths';
import { errorText } from '@/lib/api-client';
import { personalInfoBody } from '@/lib/member';
import { MESSAGES } from '@/lib/validation';
import { useUpdatePersonalInfo, type EligibilityCheck } from '@/api/account/personal-info';
import { formValues, memberBody } from '../utils/member-form-values';
import { WithMember } from './account-details-page';
import { BackLink, SavedDialog } from './edit-page-parts';
import { MemberForm } from './member-form';
import styles from './account.module.css';

/** /account/personal/edit (2.21): the member's own details; Save goes to /account/alert/update. */
export function PersonalEditPage() {
  const navigate = useNavigate();
  const save = useUpdatePersonalInfo();
  const [error, setError] = useState<string | null>(null);
  // A check the save made that did not confirm the new details: shown here, with the way forward.
  const [refused, setRefused] = useState<EligibilityCheck | null>(null);
  return (
    <WithMember>
      {(member) => (
        <div className={`${styles.page} ${styles.narrow}`}>
          <BackLink to={paths.accountPersonal.path} />
          <h1>Edit personal information</h1>
          {error ? <Alert tone="error">{error}</Alert> : null}
          <Card>
            <MemberForm
              fields={['firstName', 'lastName', 'dob', 'gender', 'email', 'phone', 'zipCode', 'memberId', 'groupId', 'payerId', 'relation']}
              initial={formValues(member)}
              relationOptions={['Self', 'Spouse']}
              locked={['email']}
              note={<p className={styles.muted}>Your email is your login: change it in Settings.</p>}
              submitLabel="Save"
              busy={save.isPending}
              onCancel={() => navigate(paths.accountPersonal.path)}
              onSubmit={(values) => {
                setError(null);
                save.mutate(
                  personalInfoBody(member, { ...memberBody(values), email: member.email }),
                  {
                    onSuccess: (saved) => {
                      if (saved.eligibilityCheck && !saved.eligibilityCheck.eligible) setRefused(saved.eligibilityCheck);
                      else navigate(paths.accountAlert.getHref('update'), { state: { checked: saved.eligibilityCheck?.eligible === true } });
                    },
                    onError: (failure) => setError(errorText(failure, MESSAGES.somethingWrong)),
                  },
                );
              }}
            />
          </Card>
          <SavedDialog open={refused !== null} check={refused} onDone={() => navigate(paths.accountPersonal.path)}>
            {null}
          </SavedDialog>
        </div>
      )}
    </WithMember>
  );
}
