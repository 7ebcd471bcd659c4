import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { queryKeys } from '@/api/query-keys';
import { useQueryClient } from '@tanstack/react-query';
import { AlertIcon, CheckIcon } from '@/components/icons/icons';
import { AuthCard } from '@/components/ui/auth-card';
import { LinkButton } from '@/components/ui/button';
import { Notice, useNotice } from '@/components/ui/notice';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { errorText } from '@/lib/api-client';
import { MESSAGES } from '@/lib/validation';
import { useConfirmAccount } from '@/api/auth/confirm-account';
import styles from './auth.module.css';

export const ACCOUNT_VERIFIED_TEXT = 'Great job! Your account is verified.';

/** /auth/confirm (2.15): a spinner until the account (or a changed email) is verified, then a Login button. */
export function AccountConfirmedPage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  const queryClient = useQueryClient();
  const confirm = useConfirmAccount(token);
  const notice = useNotice(3000);
  const { show } = notice;

  useEffect(() => {
    if (confirm.isError) show(errorText(confirm.error, MESSAGES.somethingWrong));
    if (confirm.isSuccess) void queryClient.invalidateQueries({ queryKey: queryKeys.member.all });
  }, [confirm.isError, confirm.isSuccess, confirm.error, show, queryClient]);

  return (
    <AuthCard title={confirm.isSuccess ? 'Account verified' : 'Verifying your account'}>
      <div className={styles.center}>
        {confirm.isPending ? <Spinner label="Verifying your account" /> : null}
        {confirm.isSuccess ? (
          <>
            <span className={`${styles.icon} ${styles.iconSuccess}`}>
              <CheckIcon size={28} />
            </span>
            <p>{ACCOUNT_VERIFIED_TEXT}</p>
          </>
        ) : null}
        {confirm.isError ? (
          <>
            <span className={`${styles.icon} ${styles.iconWarning}`}>
              <AlertIcon size={28} />
            </span>
            <p>{errorText(confirm.error, MESSAGES.somethingWrong)}</p>
          </>
        ) : null}
        {!confirm.isPending ? <LinkButton to={paths.login.path}>Login</LinkButton> : null}
      </div>
      <Notice message={notice.message} />
    </AuthCard>
  );
}
