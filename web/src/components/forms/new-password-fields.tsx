import { PasswordField } from '@/components/ui/field';
import type { FieldBinding } from './use-form-fields';

/** A new password and its confirmation (each a new password to the browser); the screens word the labels their own way. */
export function NewPasswordFields({
  password,
  confirmation,
  labels = ['New password', 'Confirm new password'],
}: {
  password: FieldBinding;
  confirmation: FieldBinding;
  labels?: readonly [string, string];
}) {
  return (
    <>
      <PasswordField label={labels[0]} autoComplete="new-password" {...password} />
      <PasswordField label={labels[1]} autoComplete="new-password" {...confirmation} />
    </>
  );
}
