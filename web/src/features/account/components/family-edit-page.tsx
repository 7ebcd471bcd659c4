import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { ActionDialog } from '@/components/ui/action-dialog';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Notice, useNotice } from '@/components/ui/notice';
import { paths } from '@/config/paths';
import { answerText, errorText } from '@/lib/api-client';
import { fullName } from '@/lib/member';
import { selectedDependent } from '@/lib/storage';
import { MESSAGES } from '@/lib/validation';
import type { EligibilityCheck } from '@/api/account/personal-info';
import { useDeleteFamilyMember, useUpdateFamilyMember } from '@/api/family/family-members';
import { familyUpdateBody, formValues, memberBody } from '../utils/member-form-values';
import { BackLink, SavedDialog, WithFamilyMember } from './edit-page-parts';
import { REMOVE_TEXTS } from './family-panel';
import { MemberForm } from './member-form';
import styles from './account.module.css';

/** /account/family-members/edit/{id} (2.21, mobile): edit, Switch Providers, and Remove with confirmation. */
export function FamilyEditPage() {
  const id = Number(useParams().id);
  const navigate = useNavigate();
  const save = useUpdateFamilyMember();
  const remove = useDeleteFamilyMember();
  const notice = useNotice(3000);
  const [confirmRemove, setConfirmRemove] = useState(false);
  // A check the save made that did not confirm the new details: shown here, with the way forward.
  const [refused, setRefused] = useState<EligibilityCheck | null>(null);
  return (
    <WithFamilyMember id={id}>
      {(person) => (
        <div className={`${styles.page} ${styles.narrow}`}>
          <BackLink to={paths.familyMember.getHref(id)} label={fullName(person)} />
          <h1>Edit {fullName(person)}</h1>
          <Card>
            <MemberForm
              fields={['firstName', 'lastName', 'dob', 'gender', 'email', 'phone', 'zipCode']}
              initial={formValues(person)}
              submitLabel="Save"
              busy={save.isPending}
              onCancel={() => navigate(paths.familyMember.getHref(id))}
              onSubmit={(values) => {
                const body = memberBody(values);
                save.mutate(
                  { id, body: familyUpdateBody(person, { firstName: body.firstName, lastName: body.lastName, email: body.email, gender: values.gender, zipCode: body.zipCode, phone: body.phone, dob: body.dob }) },
                  {
                    onSuccess: (answer) => {
                      if (answer.eligibilityCheck && !answer.eligibilityCheck.eligible) setRefused(answer.eligibilityCheck);
                      else navigate(paths.accountAlert.getHref('update'), { state: { checked: answer.eligibilityCheck?.eligible === true } });
                    },
                    onError: (failure) => notice.show(errorText(failure, MESSAGES.somethingWrong)),
                  },
                );
              }}
              extraActions={
                <>
                  <Button
                    variant="secondary"
                    onClick={() => {
                      selectedDependent.set(id);
                      navigate(paths.marketplace.getHref({ selectProvider: 'true' }));
                    }}
                  >
                    Switch Providers
                  </Button>
                  <Button variant="danger" onClick={() => setConfirmRemove(true)}>
                    Remove
                  </Button>
                </>
              }
            />
          </Card>
          <SavedDialog open={refused !== null} check={refused} reviewTo={`${paths.accountDetails.path}?panel=family`} onDone={() => navigate(paths.familyMember.getHref(id))}>
            {null}
          </SavedDialog>
          <ActionDialog
            open={confirmRemove}
            title={REMOVE_TEXTS.question}
            onClose={() => setConfirmRemove(false)}
            secondary={{ label: 'No, go back', onClick: () => setConfirmRemove(false) }}
            primary={{
              label: 'Remove',
              variant: 'danger',
              disabled: remove.isPending,
              onClick: () =>
                remove.mutate(id, {
                  onSuccess: (answer) => navigate(paths.familyMembersMenu.path, { state: { message: answerText(answer, `${fullName(person)} was removed.`) } }),
                  onError: (failure) => {
                    setConfirmRemove(false);
                    notice.show(errorText(failure, MESSAGES.somethingWrong));
                  },
                }),
            }}
          >
            <p>{REMOVE_TEXTS.warning}</p>
          </ActionDialog>
          <Notice message={notice.message} />
        </div>
      )}
    </WithFamilyMember>
  );
}
