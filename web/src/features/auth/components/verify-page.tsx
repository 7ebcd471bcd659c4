import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { MailIcon } from '@/components/icons/icons';
import { Alert } from '@/components/ui/alert';
import { AuthCard } from '@/components/ui/auth-card';
import { Button, LinkButton } from '@/components/ui/button';
import { Notice, useNotice } from '@/components/ui/notice';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { errorText, isApiError } from '@/lib/api-client';
import { storedEmail } from '@/lib/storage';
import { MESSAGES } from '@/lib/validation';
import { useSendVerification } from '@/api/auth/send-verification';
import { useVerifyAccount } from '@/api/auth/verify-account';
import styles from './auth.module.css';

/** 'Verification link sent to email {email}' (section 8). */
export function verificationSentText(email: string): string {
  return `Verification link sent to email ${email}`;
}

/**
 * /verify (VerifyAccount): tells a new member to open the emailed link, shows whether the email
 * is verified, and resends the link.
 */
export function VerifyPage() {
  const [params] = useSearchParams();
  const email = (params.get('email') ?? storedEmail.get() ?? '').trim().toLowerCase();
  const status = useVerifyAccount(email || null);
  const send = useSendVerification();
  const notice = useNotice();
  const [sentError, setSentError] = useState<string | null>(null);

  function resend() {
    setSentError(null);
    send.mutate(email, {
      onSuccess: () => notice.show(verificationSentText(email)),
      onError: (failure) => setSentError(isApiError(failure, 404) ? 'No member found' : errorText(failure, MESSAGES.tryLater)),
    });
  }

  const verified = status.data?.verified === true;
  const missing = status.data?.exist === false;

  return (
    <AuthCard title="Verify your account">
      <div className={styles.center}>
        <span className={`${styles.icon} ${verified ? styles.iconSuccess : ''}`}>
          <MailIcon size={28} />
        </span>
        {!email ? <p>Open the link we emailed you to confirm your email and set your password.</p> : null}
        {email && status.isPending ? <Spinner label="Checking your account" /> : null}
        {email && status.isError ? <Alert tone="warning">{errorText(status.error, MESSAGES.tryLater)}</Alert> : null}
        {missing ? (
          <Alert tone="warning" title="No member found">
            There is no account associated with that email. <Link to={paths.register.path}>Register</Link>
          </Alert>
        ) : null}
        {verified ? <p>Your email {email} is verified. You can log in.</p> : null}
        {status.data && !verified && !missing ? (
          <p>
            We sent a link to <strong>{email}</strong>. Open it to confirm your email and set your password. Email verification still pending.
          </p>
        ) : null}
        {sentError ? <Alert tone="error">{sentError}</Alert> : null}
        <div className={styles.actions} style={{ width: '100%' }}>
          {!verified && !missing && email ? (
            <Button variant="secondary" onClick={resend} disabled={send.isPending}>
              Resend verification link
            </Button>
          ) : null}
          <LinkButton to={`${paths.login.path}${email ? `?email=${encodeURIComponent(email)}` : ''}`}>Login</LinkButton>
        </div>
      </div>
      <Notice message={notice.message} />
    </AuthCard>
  );
}
