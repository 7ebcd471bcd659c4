import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Card } from '@/components/ui/card';
import { errorText } from '@/lib/api-client';
import { paths } from '@/config/paths';
import { fullName } from '@/lib/member';
import { MESSAGES } from '@/lib/validation';
import type { EligibilityCheck } from '@/api/account/personal-info';
import { useUpdateFamilyMember } from '@/api/family/family-members';
import { familyUpdateBody, formValues, memberBody } from '../utils/member-form-values';
import { WithMember } from './account-details-page';
import { BackLink, cancelTarget, SavedDialog, WithFamilyMember } from './edit-page-parts';
import { MemberForm } from './member-form';
import styles from './account.module.css';

/** /account/edit-dependent/{id} (2.19): the desktop family member form. */
export function EditDependentPage() {
  const id = Number(useParams().id);
  const navigate = useNavigate();
  const save = useUpdateFamilyMember();
  const [saved, setSaved] = useState<{ check: EligibilityCheck | null } | null>(null);
  const [error, setError] = useState<string | null>(null);
  return (
    <WithMember>
      {(member) => (
        <WithFamilyMember id={id}>
          {(person) => (
            <div className={`${styles.page} ${styles.narrow}`}>
              <BackLink to={cancelTarget()} />
              <h1>Edit {fullName(person)}</h1>
              {error ? <Alert tone="error">{error}</Alert> : null}
              <Card>
                <MemberForm
                  fields={['relation', 'firstName', 'lastName', 'dob', 'gender', 'employer', 'memberId', 'planId']}
                  initial={formValues(person, member.companyName)}
                  relationOptions={['Spouse', 'Dependent']}
                  // The relationship, member ID and plan belong to the insurance and are not edited here.
                  locked={['relation', 'memberId', 'planId']}
                  note={<p className={styles.muted}>A new name or date of birth is checked with the health plan when you save.</p>}
                  submitLabel="Save Information"
                  busy={save.isPending}
                  onCancel={() => navigate(cancelTarget())}
                  onSubmit={(values) => {
                    setError(null);
                    const body = memberBody(values);
                    save.mutate(
                      { id, body: familyUpdateBody(person, { firstName: body.firstName, lastName: body.lastName, dob: body.dob, gender: values.gender }) },
                      { onSuccess: (answer) => setSaved({ check: answer.eligibilityCheck ?? null }), onError: (failure) => setError(errorText(failure, MESSAGES.somethingWrong)) },
                    );
                  }}
                />
              </Card>
              <SavedDialog open={saved !== null} check={saved?.check ?? null} reviewTo={`${paths.accountDetails.path}?panel=family`} onDone={() => navigate(cancelTarget())}>
                <p>{fullName(person)}&apos;s information is saved.</p>
              </SavedDialog>
            </div>
          )}
        </WithFamilyMember>
      )}
    </WithMember>
  );
}
