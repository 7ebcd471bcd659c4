import { useId, useState, type FormEvent } from 'react';
import { FormActions } from '@/components/forms/form-actions';
import { EmailField } from '@/components/forms/person-fields';
import { useEmailInput } from '@/components/forms/use-email-input';
import { NewPasswordFields } from '@/components/forms/new-password-fields';
import { EditIcon } from '@/components/icons/icons';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Dialog } from '@/components/ui/dialog';
import { PasswordField } from '@/components/ui/field';
import { PasswordChecklist } from '@/components/ui/password-checklist';
import { errorText, fieldError, isApiError } from '@/lib/api-client';
import { hasPassword, type Member } from '@/lib/member';
import { signOut } from '@/lib/session';
import { MESSAGES, passwordError, passwordMatchError } from '@/lib/validation';
import { useChangeEmail, useChangePassword, useSetNotifications } from '@/api/account/settings';
import { useResetPassword } from '@/api/auth/reset-password';
import { useValidateEmail } from '@/api/auth/validate-email';
import { SessionsCard } from './sessions-card';
import styles from './account.module.css';

export const SETTINGS_TEXTS = {
  saved: 'Password saved successfully! Please continue to login.',
  registered: 'This e-mail is already registered.',
} as const;

type SettingsDialog = 'check-email' | 'registered' | 'saved' | 'error' | null;

/** Errors of the set/change password form (section 5), before anything is sent. */
export function passwordFormErrors(values: { current: string; password: string; confirmation: string }, changing: boolean) {
  return {
    current: changing && !values.current ? MESSAGES.passwordRequired : null,
    password: passwordError(values.password) ?? (changing && values.password === values.current ? MESSAGES.passwordSameAsOld : null),
    confirmation: passwordMatchError(values.password, values.confirmation),
  };
}

/** The change-email button: 'Send verification link' in the panel (2.17), 'Send Verification' on the mobile Settings screen (2.22). */
export const SEND_VERIFICATION_LABELS = { panel: 'Send verification link', mobile: 'Send Verification' } as const;

/** The Settings panel: the login email and password, each with an edit form. */
export function SettingsPanel({
  member,
  initialForm = null,
  sendLabel = SEND_VERIFICATION_LABELS.panel,
}: {
  member: Member;
  initialForm?: 'email' | 'password' | null;
  sendLabel?: string;
}) {
  const [form, setForm] = useState<'email' | 'password' | null>(initialForm);
  const [dialog, setDialog] = useState<SettingsDialog>(null);
  const [message, setMessage] = useState('');
  const changing = hasPassword(member);

  function fail(text: string) {
    setMessage(text);
    setDialog('error');
  }

  return (
    <div className={styles.panel}>
      <Card title="Login">
        <div className={styles.settingRow}>
          <div className={styles.settingValue}>
            <span>Email</span>
            <strong>{member.email}</strong>
          </div>
          <button type="button" className={styles.iconLink} aria-label="Change email" onClick={() => setForm('email')}>
            <EditIcon size={18} />
          </button>
        </div>
        <div className={styles.settingRow}>
          <div className={styles.settingValue}>
            <span>Password</span>
            <strong>{changing ? '••••••••' : 'Not set'}</strong>
          </div>
          <button type="button" className={styles.iconLink} aria-label={changing ? 'Change password' : 'Set password'} onClick={() => setForm('password')}>
            <EditIcon size={18} />
          </button>
        </div>
      </Card>

      {form === 'email' ? (
        <ChangeEmailForm
          sendLabel={sendLabel}
          hasPassword={changing}
          onCancel={() => setForm(null)}
          onSent={() => {
            setForm(null);
            setDialog('check-email');
          }}
          onRegistered={() => setDialog('registered')}
          onError={fail}
        />
      ) : null}
      {form === 'password' ? (
        <PasswordForm
          changing={changing}
          onCancel={() => setForm(null)}
          onSaved={() => {
            setForm(null);
            setDialog('saved');
          }}
          onError={fail}
        />
      ) : null}

      <SessionsCard />

      <Dialog open={dialog === 'check-email'} title="Check your E-mail" onClose={() => setDialog(null)} footer={<Button onClick={() => setDialog(null)}>OK</Button>}>
        <p>We sent a verification link to your new email. Open it to confirm the change.</p>
      </Dialog>
      <Dialog
        open={dialog === 'registered'}
        title={SETTINGS_TEXTS.registered}
        onClose={() => setDialog(null)}
        footer={<Button onClick={() => setDialog(null)}>Try another email</Button>}
      >
        <p>Choose an email that is not used by another account.</p>
      </Dialog>
      <Dialog open={dialog === 'saved'} title="Password saved" onClose={signOut} footer={<Button onClick={signOut}>Continue to Login</Button>}>
        <p>{SETTINGS_TEXTS.saved}</p>
        <p>Every other device signed in to your account has been signed out.</p>
      </Dialog>
      <Dialog open={dialog === 'error'} title="Oops. Something went wrong" onClose={() => setDialog(null)} footer={<Button onClick={() => setDialog(null)}>OK</Button>}>
        <p>{message}</p>
      </Dialog>
    </div>
  );
}

/**
 * The mobile Settings screen's email notification switch (2.22): shows the member's `notify`
 * flag and saves a change through PUT /member/app/notifications. The switch moves only once the
 * server has accepted the change; a refusal shows the server's message and leaves it as it was.
 */
export function EmailNotificationsCard({ member }: { member: Member }) {
  const id = useId();
  const save = useSetNotifications();
  const [error, setError] = useState<string | null>(null);
  const notify = member.notify === true;

  function toggle() {
    if (save.isPending) return;
    setError(null);
    save.mutate(!notify, { onError: (failure) => setError(errorText(failure, MESSAGES.somethingWrong)) });
  }

  return (
    <Card title="Notifications">
      <div className={styles.settingRow}>
        <div className={styles.settingValue}>
          <label htmlFor={id}>
            <span>Email notifications</span>
          </label>
          <span id={`${id}-hint`}>News and updates about Nearcare by email</span>
        </div>
        <input
          id={id}
          type="checkbox"
          role="switch"
          className={styles.switch}
          checked={notify}
          aria-describedby={`${id}-hint`}
          aria-busy={save.isPending || undefined}
          disabled={save.isPending}
          onChange={toggle}
        />
      </div>
      {error ? (
        <p className={styles.danger} role="alert">
          {error}
        </p>
      ) : null}
    </Card>
  );
}

/**
 * The change-email form: the new address and the current password (the server asks for it, so a
 * stolen session alone cannot move the account to another address).
 */
function ChangeEmailForm({
  sendLabel,
  hasPassword: passwordSet,
  onCancel,
  onSent,
  onRegistered,
  onError,
}: {
  sendLabel: string;
  hasPassword: boolean;
  onCancel: () => void;
  onSent: () => void;
  onRegistered: () => void;
  onError: (text: string) => void;
}) {
  const email = useEmailInput('', { requiredMessage: MESSAGES.required, invalidMessage: MESSAGES.emailInvalid });
  const [current, setCurrent] = useState('');
  const [currentError, setCurrentError] = useState<string | null>(null);
  const validate = useValidateEmail();
  const change = useChangeEmail();
  const busy = validate.isPending || change.isPending;

  async function submit(event: FormEvent) {
    event.preventDefault();
    const normalised = email.submit();
    const missingPassword = passwordSet && !current;
    setCurrentError(missingPassword ? MESSAGES.passwordRequired : null);
    if (normalised === null || missingPassword || busy) return;
    try {
      const check = await validate.mutateAsync({ email: normalised, status: 'all' });
      if (!check.valid) {
        onRegistered();
        return;
      }
      await change.mutateAsync({ email: normalised, currentPassword: current });
      onSent();
    } catch (failure) {
      const onField = fieldError(failure);
      if (isApiError(failure) && (failure.code === 'email_taken' || failure.status === 409)) onRegistered();
      else if (isApiError(failure) && failure.code === 'invalid_password') setCurrentError(MESSAGES.passwordInvalid);
      // The server's word on the new address shows at the field, not in the error dialog.
      else if (onField?.field === 'email' || onField?.field === 'newEmail') email.showServerError(onField.message);
      else onError(errorText(failure, MESSAGES.somethingWrong));
    }
  }

  return (
    <Card title="Change Email">
      <form className={styles.form} onSubmit={(event) => void submit(event)} noValidate>
        <EmailField label="New email" autoComplete="email" {...email.field} />
        {passwordSet ? (
          <PasswordField
            label="Current password"
            autoComplete="current-password"
            value={current}
            onChange={(value) => {
              setCurrent(value);
              setCurrentError(null);
            }}
            error={currentError}
          />
        ) : (
          <p className={styles.muted}>Set a password first: changing your login e-mail asks for your current password.</p>
        )}
        <FormActions className={styles.formActions} onCancel={onCancel} submitLabel={sendLabel} disabled={busy || !passwordSet} />
      </form>
    </Card>
  );
}

function PasswordForm({ changing, onCancel, onSaved, onError }: { changing: boolean; onCancel: () => void; onSaved: () => void; onError: (text: string) => void }) {
  const [values, setValues] = useState({ current: '', password: '', confirmation: '' });
  const [touched, setTouched] = useState(false);
  const [currentError, setCurrentError] = useState<string | null>(null);
  const change = useChangePassword();
  const setFirst = useResetPassword();
  const errors = passwordFormErrors(values, changing);
  const valid = Object.values(errors).every((error) => error === null);
  const busy = change.isPending || setFirst.isPending;
  const set = (key: keyof typeof values) => (value: string) => {
    if (key === 'current') setCurrentError(null);
    setValues((current) => ({ ...current, [key]: value }));
  };

  function submit(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (!valid || busy) return;
    if (changing) {
      change.mutate(
        { password: values.password, currentPassword: values.current },
        {
          onSuccess: onSaved,
          onError: (failure) => {
            const text = errorText(failure, MESSAGES.somethingWrong);
            if (text === MESSAGES.passwordInvalid || (isApiError(failure) && failure.code === 'invalid_password')) setCurrentError(MESSAGES.passwordInvalid);
            else onError(text);
          },
        },
      );
    } else {
      setFirst.mutate({ password: values.password }, { onSuccess: onSaved, onError: (failure) => onError(errorText(failure, MESSAGES.somethingWrong)) });
    }
  }

  return (
    <Card title={changing ? 'Change Password' : 'Set Password'}>
      <form className={styles.form} onSubmit={submit} noValidate>
        <PasswordChecklist password={values.password} />
        {changing ? (
          <PasswordField label="Current password" autoComplete="current-password" value={values.current} onChange={set('current')} error={currentError ?? (touched ? errors.current : null)} />
        ) : null}
        <NewPasswordFields
          password={{ value: values.password, onChange: set('password'), error: touched ? errors.password : null }}
          confirmation={{ value: values.confirmation, onChange: set('confirmation'), error: touched ? errors.confirmation : null }}
        />
        <FormActions className={styles.formActions} onCancel={onCancel} submitLabel={changing ? 'Change Password' : 'Set Password'} disabled={busy} />
      </form>
    </Card>
  );
}
