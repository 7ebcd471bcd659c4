import { useEffect, useState, type FormEvent } from 'react';
import { Navigate, useNavigate, useParams, useSearchParams } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { AuthCard } from '@/components/ui/auth-card';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { NewPasswordFields } from '@/components/forms/new-password-fields';
import { PasswordChecklist } from '@/components/ui/password-checklist';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { errorText, isApiError } from '@/lib/api-client';
import { MESSAGES, passwordError, passwordMatchError } from '@/lib/validation';
import { useResetPassword } from '@/api/auth/reset-password';
import { useValidateToken } from '@/api/auth/validate-token';
import styles from './auth.module.css';

export const RESET_TEXTS = {
  saved: 'Password saved successfully! Please continue to login.',
  emailConfirmed: 'Success. Your e-mail is confirmed.',
  linkExpired: 'Oops, it seems your link has expired.',
} as const;

/** The reset form's messages: 'Please type password.' when empty, then the shared rules. */
export function resetFormErrors(password: string, confirmation: string): { password: string | null; confirmation: string | null } {
  return {
    password: password ? passwordError(password) : MESSAGES.passwordType,
    confirmation: confirmation ? passwordMatchError(password, confirmation) : MESSAGES.passwordType,
  };
}

/**
 * /auth/reset-password (2.9, 2.11): validates the link's token (401 goes to /expired), then sets
 * the new password with the fresh token the validation returns.
 */
export function ResetPasswordPage() {
  const navigate = useNavigate();
  const routeParams = useParams();
  const [params] = useSearchParams();
  const linkToken = routeParams.token ?? params.get('token');
  // A provider's link (`account=provider`) expires into a page without member registration.
  const expiredPath = params.get('account') === 'provider' ? `${paths.expired.path}?account=provider` : paths.expired.path;
  const validation = useValidateToken(linkToken);
  const reset = useResetPassword();

  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [touched, setTouched] = useState({ password: false, confirmation: false });
  const [banner, setBanner] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<'saved' | 'failed' | null>(null);
  const [failure, setFailure] = useState('');

  const expired = validation.isError && isApiError(validation.error, 401);
  useEffect(() => {
    if (expired) navigate(expiredPath, { replace: true });
  }, [expired, navigate, expiredPath]);
  useEffect(() => {
    if (validation.isError && !expired) setBanner(errorText(validation.error, RESET_TEXTS.linkExpired));
  }, [validation.isError, validation.error, expired]);

  if (!linkToken) return <Navigate to={expiredPath} replace />;

  const answer = validation.data;
  // A verification link for an account that already has a password only confirms the email.
  const alreadyConfirmed = Boolean(answer?.password) && (answer?.purpose === 'verify_email' || answer?.purpose === 'verify');
  const settingFirstPassword = answer !== undefined && !answer.password;
  const errors = resetFormErrors(password, confirmation);
  const valid = errors.password === null && errors.confirmation === null;

  function submit(event: FormEvent) {
    event.preventDefault();
    setTouched({ password: true, confirmation: true });
    if (!valid || !answer || reset.isPending) return;
    setBanner(null);
    reset.mutate(
      { password, token: answer.newToken },
      {
        onSuccess: () => setOutcome('saved'),
        onError: (error) => {
          if (isApiError(error, 401)) {
            navigate(expiredPath, { replace: true });
            return;
          }
          if (isApiError(error, 403)) {
            setFailure(errorText(error, MESSAGES.somethingWrong));
            setOutcome('failed');
            return;
          }
          setBanner(errorText(error, MESSAGES.tryLater));
        },
      },
    );
  }

  return (
    <AuthCard title={settingFirstPassword ? 'Set your password' : 'Reset Password'} subtitle="Choose a password you do not use anywhere else.">
      {validation.isPending ? <Spinner label="Checking your link" /> : null}
      {banner ? <Alert tone="error">{banner}</Alert> : null}
      {answer && !alreadyConfirmed ? (
        <form className={styles.form} onSubmit={submit} noValidate>
          <PasswordChecklist password={password} />
          <NewPasswordFields
            labels={['New Password', 'Confirm New Password']}
            password={{ value: password, onChange: setPassword, onBlur: () => setTouched((value) => ({ ...value, password: true })), error: touched.password ? errors.password : null }}
            confirmation={{
              value: confirmation,
              onChange: setConfirmation,
              onBlur: () => setTouched((value) => ({ ...value, confirmation: true })),
              error: touched.confirmation ? errors.confirmation : null,
            }}
          />
          <div className={styles.actions}>
            <Button variant="secondary" onClick={() => navigate(paths.login.path)}>
              Back to Login
            </Button>
            <Button type="submit" disabled={!valid || reset.isPending}>
              {settingFirstPassword ? 'Set password' : 'Reset password'}
            </Button>
          </div>
        </form>
      ) : null}
      {validation.isError && !expired ? (
        <div className={styles.actions}>
          <Button variant="secondary" onClick={() => navigate(paths.login.path)}>
            Back to Login
          </Button>
          <Button onClick={() => navigate(expiredPath)}>Send new link</Button>
        </div>
      ) : null}

      <Dialog open={outcome === 'saved'} title="Password saved" onClose={() => navigate(paths.login.path)} footer={<Button onClick={() => navigate(paths.login.path)}>Continue to Login</Button>}>
        <p>{RESET_TEXTS.saved}</p>
      </Dialog>
      <Dialog open={alreadyConfirmed} title={RESET_TEXTS.emailConfirmed} onClose={() => navigate(paths.login.path)} footer={<Button onClick={() => navigate(paths.login.path)}>Continue to Login</Button>}>
        <p>Your account already has a password. Continue to login.</p>
      </Dialog>
      <Dialog open={outcome === 'failed'} title="Oops. Something went wrong" onClose={() => setOutcome(null)} footer={<Button onClick={() => setOutcome(null)}>OK</Button>}>
        <p>{failure}</p>
      </Dialog>
    </AuthCard>
  );
}
