import { Navigate, useNavigate, useParams } from 'react-router';
import { AlertIcon, CheckIcon, MailIcon } from '@/components/icons/icons';
import { AuthCard } from '@/components/ui/auth-card';
import { Button, LinkButton } from '@/components/ui/button';
import { Notice, useNotice } from '@/components/ui/notice';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { errorText } from '@/lib/api-client';
import { useMemberInfo } from '@/lib/member';
import { redirectTarget, storedEmail, storedEmployerName } from '@/lib/storage';
import { MESSAGES } from '@/lib/validation';
import { useSendVerification } from '@/api/auth/send-verification';
import { verificationSentText } from './verify-page';
import styles from './auth.module.css';

export type AuthAlertType = 'loading' | 'verification' | 'updated-info' | 'error';
const TYPES: AuthAlertType[] = ['loading', 'verification', 'updated-info', 'error'];

/** /auth/alert/{type} (2.16): loading, verification, updated-info and error; its snackbar lasts 3000 ms. */
export function AuthAlertPage() {
  const { type } = useParams();
  const navigate = useNavigate();
  const member = useMemberInfo();
  const send = useSendVerification();
  const notice = useNotice(3000);
  if (!TYPES.includes(type as AuthAlertType)) return <Navigate to={paths.notFound.path} replace />;
  const email = member.data?.email ?? storedEmail.get() ?? '';
  const laterTarget = redirectTarget.get() === paths.accountDetails.path ? paths.accountDetails.path : paths.home.path;

  if (type === 'loading') {
    return (
      <AuthCard title="One moment">
        <Spinner label="Loading" />
      </AuthCard>
    );
  }
  if (type === 'verification') {
    return (
      <AuthCard title="Verify your email">
        <div className={styles.center}>
          <span className={styles.icon}>
            <MailIcon size={28} />
          </span>
          <p>We sent a verification link to {email ? <strong>{email}</strong> : 'your email'}. Open it to confirm your account.</p>
          <div className={styles.actions} style={{ width: '100%' }}>
            <Button
              variant="secondary"
              disabled={!email || send.isPending}
              onClick={() =>
                send.mutate(email, {
                  onSuccess: () => notice.show(verificationSentText(email)),
                  onError: (failure) => notice.show(errorText(failure, 'No member found')),
                })
              }
            >
              Resend verification link
            </Button>
            <LinkButton to={paths.login.path}>Login</LinkButton>
          </div>
        </div>
        <Notice message={notice.message} />
      </AuthCard>
    );
  }
  if (type === 'updated-info') {
    const employer = storedEmployerName.get() ?? member.data?.companyName;
    return (
      <AuthCard title="Your information is updated">
        <div className={styles.center}>
          <span className={`${styles.icon} ${styles.iconSuccess}`}>
            <CheckIcon size={28} />
          </span>
          <p>Your account is linked to {employer ? <strong>{employer}</strong> : 'your employer'}.</p>
          <Button onClick={() => navigate(paths.home.path)}>Continue</Button>
        </div>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="We could not confirm your information">
      <div className={styles.center}>
        <span className={`${styles.icon} ${styles.iconWarning}`}>
          <AlertIcon size={28} />
        </span>
        <p>{MESSAGES.somethingWrong}. Please review your information, or fix it later from your account.</p>
        <div className={styles.actions} style={{ width: '100%' }}>
          <Button variant="secondary" onClick={() => navigate(laterTarget)}>
            Fix Later
          </Button>
          <Button onClick={() => navigate(paths.personalInfo.path)}>Review Information</Button>
        </div>
      </div>
    </AuthCard>
  );
}
