import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { AuthCard } from '@/components/ui/auth-card';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { EmailField } from '@/components/forms/person-fields';
import { useEmailInput } from '@/components/forms/use-email-input';
import { paths } from '@/config/paths';
import { isApiError } from '@/lib/api-client';
import { storedEmail } from '@/lib/storage';
import { MESSAGES, normaliseEmail } from '@/lib/validation';
import { useRequestPasswordReset } from '@/api/auth/request-password-reset';
import styles from './auth.module.css';

export const CHECK_EMAIL_TEXT = 'If there is an account associated to this e-mail, you will receive a link.';

/**
 * /forgot-password and /expired (2.10): an email and a button that sends a reset link; on
 * success the 'Check your Email' modal.
 */
export function ForgotPasswordPage({ variant = 'forgot' }: { variant?: 'forgot' | 'expired' }) {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const email = useEmailInput(() => normaliseEmail(params.get('email') ?? storedEmail.get() ?? ''), { requiredMessage: MESSAGES.emailRequired, invalidMessage: MESSAGES.emailInvalid });
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const request = useRequestPasswordReset();
  const expired = variant === 'expired';

  function submit(event: FormEvent) {
    event.preventDefault();
    const normalised = email.submit();
    if (normalised === null || request.isPending) return;
    setError(null);
    request.mutate(
      { email: normalised },
      {
        onSuccess: () => {
          storedEmail.set(normalised);
          setSent(true);
        },
        onError: (failure) => setError(isApiError(failure, 429) ? failure.message : MESSAGES.emailNotReachable),
      },
    );
  }

  return (
    <AuthCard
      title={expired ? 'Your link has expired' : 'Forgot password'}
      subtitle={expired ? "Confirm your email address and we'll send you a link" : 'Enter your email and we will send you a link to reset your password.'}
      footer={
        // Registration is a member's: a provider (whose link said so) is not offered it.
        expired && params.get('account') !== 'provider' ? (
          <p>
            No account yet? <Link to={paths.register.path}>Register</Link>
          </p>
        ) : null
      }
    >
      {error ? <Alert tone="error">{error}</Alert> : null}
      <form className={styles.form} onSubmit={submit} noValidate>
        <EmailField label={expired ? 'E-mail' : 'Company E-mail'} autoComplete="email" {...email.field} />
        <div className={styles.actions}>
          <Button variant="secondary" onClick={() => navigate(paths.login.path)}>
            Back to Login
          </Button>
          <Button type="submit" disabled={request.isPending}>
            {expired ? 'Send new link' : 'Send password reset link'}
          </Button>
        </div>
      </form>
      <Dialog
        open={sent}
        title="Check your Email"
        onClose={() => setSent(false)}
        footer={<Button onClick={() => navigate(paths.login.path)}>Back to Login</Button>}
      >
        <p>{CHECK_EMAIL_TEXT}</p>
      </Dialog>
    </AuthCard>
  );
}
