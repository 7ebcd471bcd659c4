import { MemberIdField, PlanField } from '@/components/forms/insurance-fields';
import { EmailField, PersonFields, PhoneField, RelationField } from '@/components/forms/person-fields';
import { CheckboxField } from '@/components/ui/field';
import type { Relation } from '@/lib/member';
import { relationOptions } from '../utils/eligibility-form';
import type { useFamilyMemberForm } from './use-family-member-form';
import styles from './eligibility.module.css';

interface FamilyMemberFieldsetsProps {
  family: ReturnType<typeof useFamilyMemberForm>;
  planId: string;
  planName: string;
}

/** The add-family form's fields: the family member, their contact and the copied plan. */
export function FamilyMemberFieldsets({ family, planId, planName }: FamilyMemberFieldsetsProps) {
  const { form, contact } = family;
  const { values, field } = form;
  return (
    <>
      <fieldset className={styles.fieldset}>
        <legend>Family member</legend>
        <RelationField relations={relationOptions(true)} {...field('relation')} onChange={(relation) => form.set('relation', relation as Relation)} />
        <PersonFields fields={{ firstName: field('firstName'), lastName: field('lastName'), dob: field('dob'), gender: field('gender') }} rowClassName={styles.row} />
      </fieldset>
      <fieldset className={styles.fieldset}>
        <legend>Contact</legend>
        {values.relation !== 'Spouse' ? <CheckboxField label="Use my contact information" checked={values.useMyContact} onChange={(checked) => form.set('useMyContact', checked)} /> : null}
        <div className={styles.row}>
          <EmailField {...field('email')} value={contact.email} disabled={contact.usesMine} />
          <PhoneField {...field('phone')} value={contact.phone} disabled={contact.usesMine} />
        </div>
      </fieldset>
      <fieldset className={styles.fieldset}>
        <legend>Insurance</legend>
        <MemberIdField {...field('memberId')} />
        <PlanField value={planId} onChange={() => {}} plans={planId ? [{ value: planId, label: planName }] : []} placeholder="Your plan" disabled hint="Copied from your account" error={form.shown('plan')} />
      </fieldset>
    </>
  );
}
