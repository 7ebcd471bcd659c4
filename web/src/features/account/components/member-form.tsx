import type { FormEvent, ReactNode } from 'react';
import { FormActions } from '@/components/forms/form-actions';
import { EmployerField, MemberIdField, PlanField } from '@/components/forms/insurance-fields';
import { DateOfBirthField, EmailField, GenderField, PhoneField, RelationField } from '@/components/forms/person-fields';
import { useFormFields } from '@/components/forms/use-form-fields';
import { TextField, type Choice } from '@/components/ui/field';
import { displayPhone, normaliseEmail } from '@/lib/validation';
import { memberFormErrors, type MemberField, type MemberFormValues } from '../utils/member-form-values';
import styles from './account.module.css';

const LABELS: Record<MemberField, string> = {
  relation: 'Relationship to subscriber',
  firstName: 'First name',
  lastName: 'Last name',
  dob: 'Date of birth',
  gender: 'Gender',
  employer: 'Employer',
  email: 'Email',
  phone: 'Mobile phone',
  zipCode: 'Home zip code',
  memberId: 'Member ID',
  groupId: 'Group ID',
  payerId: 'Payer ID',
  planId: 'Health plan',
};

interface MemberFormProps {
  fields: MemberField[];
  initial: Partial<MemberFormValues>;
  relationOptions?: string[];
  planOptions?: Choice[];
  /** Fields shown but not editable (the employer, the copied insurance). */
  locked?: MemberField[];
  submitLabel: string;
  busy?: boolean;
  onSubmit: (values: MemberFormValues) => void;
  onCancel: () => void;
  note?: ReactNode;
  extraActions?: ReactNode;
}

function startValues(initial: Partial<MemberFormValues>): MemberFormValues {
  const blank = Object.fromEntries(Object.keys(LABELS).map((key) => [key, ''])) as MemberFormValues;
  return { ...blank, ...initial, phone: displayPhone(initial.phone), dob: initial.dob ?? '' };
}

/** A member details form built from a list of fields, shared by the account edit screens; messages show after a submit. */
export function MemberForm({ fields, initial, relationOptions = ['Self', 'Spouse', 'Dependent'], planOptions = [], locked = [], submitLabel, busy = false, onSubmit, onCancel, note, extraActions }: MemberFormProps) {
  const editable = fields.filter((field) => !locked.includes(field));
  const form = useFormFields<MemberFormValues>(() => startValues(initial), (values) => memberFormErrors(values, editable), { touchOnBlur: false });
  const { values } = form;

  function submit(event: FormEvent) {
    event.preventDefault();
    form.touchAll();
    if (!form.valid || busy) return;
    const trimmed = Object.fromEntries(Object.entries(values).map(([key, value]) => [key, value.trim()])) as MemberFormValues;
    onSubmit({ ...trimmed, email: normaliseEmail(trimmed.email) });
  }

  function control(field: MemberField) {
    const binding = { ...form.field(field), disabled: locked.includes(field) };
    switch (field) {
      case 'relation':
        return <RelationField key={field} label={LABELS.relation} relations={relationOptions} {...binding} />;
      case 'gender':
        return <GenderField key={field} {...binding} />;
      case 'planId':
        return <PlanField key={field} plans={planOptions.length > 0 ? planOptions : values.planId ? [{ value: values.planId, label: values.planId }] : []} {...binding} />;
      case 'employer':
        return <EmployerField key={field} employer={values.employer} error={binding.error} />;
      case 'dob':
        return <DateOfBirthField key={field} {...binding} />;
      case 'phone':
        return <PhoneField key={field} {...binding} />;
      case 'email':
        return <EmailField key={field} {...binding} />;
      case 'zipCode':
        return <TextField key={field} label={LABELS.zipCode} inputMode="numeric" maxLength={10} {...binding} />;
      case 'memberId':
        return <MemberIdField key={field} numeric {...binding} />;
      default:
        return <TextField key={field} label={LABELS[field]} {...binding} />;
    }
  }

  return (
    <form className={styles.form} onSubmit={submit} noValidate>
      {note}
      <div className={styles.grid}>{fields.map(control)}</div>
      <FormActions className={styles.formActions} onCancel={onCancel} submitLabel={submitLabel} disabled={busy}>
        {extraActions}
      </FormActions>
    </form>
  );
}
