import { useNavigate } from 'react-router';
import { Card } from '@/components/ui/card';
import { Notice, useNotice } from '@/components/ui/notice';
import { paths } from '@/config/paths';
import { errorText } from '@/lib/api-client';
import { MESSAGES } from '@/lib/validation';
import { useCreateFamilyMember } from '@/api/family/family-members';
import { memberBody } from '../utils/member-form-values';
import { WithMember } from './account-details-page';
import { BackLink } from './edit-page-parts';
import { MemberForm } from './member-form';
import styles from './account.module.css';

/** /account/family-members/add (2.21, mobile): Next creates the member and goes to /account/alert/add. */
export function FamilyAddPage() {
  const navigate = useNavigate();
  const create = useCreateFamilyMember();
  const notice = useNotice(3000);
  return (
    <WithMember>
      {(member) => (
        <div className={`${styles.page} ${styles.narrow}`}>
          <BackLink to={paths.familyMembersMenu.path} label="Family Members" />
          <h1>Add a family member</h1>
          <Card>
            <MemberForm
              fields={['relation', 'firstName', 'lastName', 'dob', 'gender', 'email', 'phone', 'memberId']}
              initial={{}}
              relationOptions={['Spouse', 'Dependent']}
              submitLabel="Next"
              busy={create.isPending}
              onCancel={() => navigate(paths.familyMembersMenu.path)}
              onSubmit={(values) =>
                create.mutate(
                  { ...memberBody(values), planId: member.planId, payerId: member.payerId, groupId: member.groupId, companyName: member.companyName, useMyContact: false },
                  { onSuccess: () => navigate(paths.accountAlert.getHref('add')), onError: (failure) => notice.show(errorText(failure, MESSAGES.somethingWrong)) },
                )
              }
            />
          </Card>
          <Notice message={notice.message} />
        </div>
      )}
    </WithMember>
  );
}
