/**
 * The person field group shared by the eligibility, add-family, personal info and account forms:
 * names, date of birth, gender, relationship, email and phone, each with the spec's mask.
 */
import type { ReactNode } from 'react';
import { SelectField, TextField, type Choice } from '@/components/ui/field';
import { formatPhone, maskDate, normaliseEmail } from '@/lib/validation';
import type { FieldBinding } from './use-form-fields';

export const GENDER_OPTIONS: Choice[] = [
  { value: 'f', label: 'Female' },
  { value: 'm', label: 'Male' },
];

/** The person fields' values, as typed. */
export interface PersonValues {
  firstName: string;
  lastName: string;
  dob: string;
  gender: string;
  email: string;
  phone: string;
}

/** A field's binding plus the attributes the forms set on it. */
export type FieldProps = FieldBinding & { disabled?: boolean };

/** Wraps `children` in a row when the form lays its fields out in rows. */
function Row({ className, children }: { className?: string; children: ReactNode }) {
  return className ? <div className={className}>{children}</div> : <>{children}</>;
}

/** First and last name; `ownDetails` lets the browser fill in the member's own name. */
export function NameFields({ firstName, lastName, rowClassName, ownDetails = false }: { firstName: FieldProps; lastName: FieldProps; rowClassName?: string; ownDetails?: boolean }) {
  return (
    <Row className={rowClassName}>
      <TextField label="First name" autoComplete={ownDetails ? 'given-name' : undefined} {...firstName} />
      <TextField label="Last name" autoComplete={ownDetails ? 'family-name' : undefined} {...lastName} />
    </Row>
  );
}

/** Date of birth typed as MM/DD/YYYY (the ##/##/#### mask). */
export function DateOfBirthField({ onChange, autoComplete, ...binding }: FieldProps & { autoComplete?: string }) {
  return <TextField label="Date of birth" placeholder="MM/DD/YYYY" inputMode="numeric" autoComplete={autoComplete} maxLength={10} {...binding} onChange={(value) => onChange(maskDate(value))} />;
}

export function GenderField(binding: FieldProps) {
  return <SelectField label="Gender" placeholder="Select" options={GENDER_OPTIONS} {...binding} />;
}

/** Name, then date of birth and gender: the person part of the eligibility and add-family forms. */
export function PersonFields({ fields, rowClassName, ownDetails = false }: { fields: Record<'firstName' | 'lastName' | 'dob' | 'gender', FieldProps>; rowClassName?: string; ownDetails?: boolean }) {
  return (
    <>
      <NameFields firstName={fields.firstName} lastName={fields.lastName} rowClassName={rowClassName} ownDetails={ownDetails} />
      <Row className={rowClassName}>
        <DateOfBirthField autoComplete={ownDetails ? 'bday' : undefined} {...fields.dob} />
        <GenderField {...fields.gender} />
      </Row>
    </>
  );
}

/** The relationship select; the eligibility form adds the subscriber tooltip beside the label. */
export function RelationField({
  relations,
  label = 'Relationship',
  placeholder = 'Select',
  labelExtra,
  ...binding
}: FieldProps & { relations: readonly string[]; label?: string; placeholder?: string | null; labelExtra?: ReactNode }) {
  return <SelectField label={label} labelExtra={labelExtra} placeholder={placeholder ?? undefined} options={relations.map((relation) => ({ value: relation, label: relation }))} {...binding} />;
}

/** A mobile phone formatted as 'XXX XXX XXXX' (or '+1 XXX XXX XXXX') while typing; no length cap, so a pasted number is never cut short. */
export function PhoneField({
  onChange,
  label = 'Mobile phone',
  placeholder = 'XXX XXX XXXX',
  inputMode,
  autoComplete,
  ...binding
}: FieldProps & { label?: string; placeholder?: string; inputMode?: 'tel'; autoComplete?: string }) {
  return (
    <TextField
      label={label}
      type="tel"
      inputMode={inputMode}
      autoComplete={autoComplete}
      placeholder={placeholder}
      {...binding}
      onChange={(value) => onChange(formatPhone(value))}
    />
  );
}

/** An email, lower-cased and trimmed when the field is left. */
export function EmailField({ value, onChange, onBlur, label = 'Email', ...rest }: FieldProps & { label?: string; autoComplete?: string }) {
  return (
    <TextField
      label={label}
      type="email"
      value={value}
      onChange={onChange}
      onBlur={() => {
        onChange(normaliseEmail(value));
        onBlur?.();
      }}
      {...rest}
    />
  );
}
