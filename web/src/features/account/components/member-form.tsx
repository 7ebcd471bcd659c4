import { useState, type FormEvent, type ReactNode } from 'react';
import { SelectField, TextField, type Choice } from '@/components/ui/field';
import { Button } from '@/components/ui/button';
import {
  dateError,
  emailError,
  formatPhone,
  maskDate,
  memberIdError,
  MESSAGES,
  normaliseEmail,
  PHONE_INPUT_MAX_LENGTH,
  phoneError,
  requiredError,
} from '@/lib/validation';
import styles from './account.module.css';

export type MemberField = 'relation' | 'firstName' | 'lastName' | 'dob' | 'gender' | 'employer' | 'email' | 'phone' | 'zipCode' | 'memberId' | 'groupId' | 'payerId' | 'planId';

export type MemberFormValues = Record<MemberField, string>;

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

const OPTIONAL: MemberField[] = ['zipCode', 'employer'];

/** The account forms' rules: required fields, MM/DD/YYYY dates, numeric member IDs, the phone and email patterns. */
export function memberFormErrors(values: MemberFormValues, fields: MemberField[]): Partial<Record<MemberField, string>> {
  const errors: Partial<Record<MemberField, string>> = {};
  for (const field of fields) {
    const value = values[field] ?? '';
    let message: string | null;
    if (field === 'dob') message = dateError(value);
    else if (field === 'email') message = emailError(value, { requiredMessage: MESSAGES.required, invalidMessage: MESSAGES.emailInvalid });
    else if (field === 'phone') message = phoneError(value);
    else if (field === 'memberId') message = memberIdError(value, { numeric: true });
    else if (field === 'zipCode') message = value && !/^\d{5}(-\d{4})?$/.test(value) ? 'Zip code must have 5 digits' : null;
    else message = OPTIONAL.includes(field) ? null : requiredError(value);
    if (message) errors[field] = message;
  }
  return errors;
}

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

/** A member details form built from a list of fields, shared by the account edit screens. */
export function MemberForm({ fields, initial, relationOptions = ['Self', 'Spouse', 'Dependent'], planOptions = [], locked = [], submitLabel, busy = false, onSubmit, onCancel, note, extraActions }: MemberFormProps) {
  const [values, setValues] = useState<MemberFormValues>(() => {
    const start = Object.fromEntries(Object.keys(LABELS).map((key) => [key, ''])) as MemberFormValues;
    return { ...start, ...initial, phone: formatPhone(initial.phone ?? ''), dob: initial.dob ?? '' };
  });
  const [touched, setTouched] = useState(false);
  const editable = fields.filter((field) => !locked.includes(field));
  const errors = memberFormErrors(values, editable);
  const set = (field: MemberField) => (value: string) => setValues((current) => ({ ...current, [field]: value }));
  const shown = (field: MemberField) => (touched ? errors[field] : undefined);

  function submit(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (Object.keys(errors).length > 0 || busy) return;
    const trimmed = Object.fromEntries(Object.entries(values).map(([key, value]) => [key, value.trim()])) as MemberFormValues;
    onSubmit({ ...trimmed, email: normaliseEmail(trimmed.email) });
  }

  function control(field: MemberField) {
    const disabled = locked.includes(field);
    const common = { label: LABELS[field], value: values[field], onChange: set(field), error: shown(field), disabled };
    switch (field) {
      case 'relation':
        return <SelectField key={field} {...common} placeholder="Select" options={relationOptions.map((relation) => ({ value: relation, label: relation }))} />;
      case 'gender':
        return (
          <SelectField
            key={field}
            {...common}
            placeholder="Select"
            options={[
              { value: 'f', label: 'Female' },
              { value: 'm', label: 'Male' },
            ]}
          />
        );
      case 'planId':
        return <SelectField key={field} {...common} placeholder="Select your plan" options={planOptions.length > 0 ? planOptions : values.planId ? [{ value: values.planId, label: values.planId }] : []} />;
      case 'employer':
        return <SelectField key={field} {...common} options={values.employer ? [{ value: values.employer, label: values.employer }] : []} placeholder="Employer" disabled />;
      case 'dob':
        return <TextField key={field} {...common} placeholder="MM/DD/YYYY" inputMode="numeric" maxLength={10} onChange={(value) => set('dob')(maskDate(value))} />;
      case 'phone':
        return <TextField key={field} {...common} type="tel" placeholder="XXX XXX XXXX" maxLength={PHONE_INPUT_MAX_LENGTH} onChange={(value) => set('phone')(formatPhone(value))} />;
      case 'email':
        return <TextField key={field} {...common} type="email" onBlur={() => set('email')(normaliseEmail(values.email))} />;
      case 'zipCode':
        return <TextField key={field} {...common} inputMode="numeric" maxLength={10} />;
      case 'memberId':
        return <TextField key={field} {...common} inputMode="numeric" />;
      default:
        return <TextField key={field} {...common} />;
    }
  }

  return (
    <form className={styles.form} onSubmit={submit} noValidate>
      {note}
      <div className={styles.grid}>{fields.map(control)}</div>
      <div className={styles.formActions}>
        {extraActions}
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" disabled={busy}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}
