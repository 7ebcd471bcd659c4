import { useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { AuthCard } from '@/components/ui/auth-card';
import { Button } from '@/components/ui/button';
import { NewPasswordFields } from '@/components/forms/new-password-fields';
import { Notice, useNotice } from '@/components/ui/notice';
import { PasswordChecklist } from '@/components/ui/password-checklist';
import { paths } from '@/config/paths';
import { errorText } from '@/lib/api-client';
import { authPasswordError, MESSAGES } from '@/lib/validation';
import { useSetPassword } from '@/api/auth/set-password';
import styles from './auth.module.css';

/** The change form's mismatch message, shown once the confirmation field has been left. */
export function mismatchError(password: string, confirmation: string, confirmationTouched: boolean): string | null {
  if (!confirmationTouched) return null;
  if (!confirmation) return MESSAGES.required;
  return password === confirmation ? null : MESSAGES.passwordsDoNotMatch;
}

/** /auth/change-password (2.13): a new password twice; Change Password stays disabled while they differ. */
export function AuthChangePasswordPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  // A link's token (?token=) authorises the change; without one, a first password is set.
  const linkToken = params.get('token');
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [touched, setTouched] = useState({ password: false, confirmation: false });
  const save = useSetPassword();
  const notice = useNotice(3000);
  const passwordMessage = touched.password ? authPasswordError(password) : null;
  const mismatch = mismatchError(password, confirmation, touched.confirmation);
  const canSave = authPasswordError(password) === null && password === confirmation && !save.isPending;

  function submit(event: FormEvent) {
    event.preventDefault();
    setTouched({ password: true, confirmation: true });
    if (!canSave) return;
    save.mutate(
      { password, token: linkToken },
      {
        onSuccess: () => navigate(paths.login.path, { state: { message: 'Password saved successfully! Please continue to login.' } }),
        onError: (failure) => notice.show(errorText(failure, MESSAGES.somethingWrong)),
      },
    );
  }

  return (
    <AuthCard title="Change Password">
      <form className={styles.form} onSubmit={submit} noValidate>
        <PasswordChecklist password={password} />
        <NewPasswordFields
          password={{ value: password, onChange: setPassword, onBlur: () => setTouched((value) => ({ ...value, password: true })), error: passwordMessage }}
          confirmation={{ value: confirmation, onChange: setConfirmation, onBlur: () => setTouched((value) => ({ ...value, confirmation: true })), error: mismatch }}
        />
        <div className={styles.actions}>
          <Button variant="secondary" onClick={() => navigate(paths.login.path)}>
            Cancel
          </Button>
          <Button type="submit" disabled={!canSave}>
            Change Password
          </Button>
        </div>
      </form>
      <Notice message={notice.message} />
    </AuthCard>
  );
}
