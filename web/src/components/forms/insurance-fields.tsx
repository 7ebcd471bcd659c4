/**
 * The insurance field group shared by the eligibility, add-family and account forms: employer,
 * member ID, payer and health plan.
 */
import type { ReactNode } from 'react';
import { SelectField, TextField, type Choice } from '@/components/ui/field';
import type { Payer } from '@/lib/member';
import type { FieldProps } from './person-fields';

/** The employer, shown but never edited: it comes from the account. */
export function EmployerField({ employer, error }: { employer: string; error?: string | null }) {
  return (
    <SelectField
      label="Employer"
      value={employer}
      onChange={() => {}}
      options={employer ? [{ value: employer, label: employer }] : []}
      placeholder="Employer"
      disabled
      error={error}
    />
  );
}

/** A member ID (the member's own, or the employee's); the account forms take digits only. */
export function MemberIdField({ label = 'Member ID', numeric = false, ...binding }: FieldProps & { label?: string; numeric?: boolean }) {
  return <TextField label={label} inputMode={numeric ? 'numeric' : undefined} {...binding} />;
}

/** The payer select, shown only when the employer has several payers. */
export function PayerField({ payers, ...binding }: FieldProps & { payers: Payer[] }) {
  return (
    <SelectField
      label="Payer ID"
      placeholder="Select your payer"
      options={payers.map((payer) => ({ value: payer.payerId, label: `${payer.payerName} (${payer.payerId})` }))}
      {...binding}
    />
  );
}

/** The health plan select. */
export function PlanField({ plans, placeholder = 'Select your plan', hint, ...binding }: FieldProps & { plans: Choice[]; placeholder?: string; hint?: ReactNode }) {
  return <SelectField label="Health plan" placeholder={placeholder} options={plans} hint={hint} {...binding} />;
}
