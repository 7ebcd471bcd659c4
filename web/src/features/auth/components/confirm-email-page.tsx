import type { FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { AuthCard } from '@/components/ui/auth-card';
import { Button } from '@/components/ui/button';
import { EmailField } from '@/components/forms/person-fields';
import { useEmailInput } from '@/components/forms/use-email-input';
import { Notice, useNotice } from '@/components/ui/notice';
import { answerText, errorText } from '@/lib/api-client';
import { useMemberInfo } from '@/lib/member';
import { storedEmail } from '@/lib/storage';
import { MESSAGES } from '@/lib/validation';
import { useEmailResetLink } from '@/api/auth/email-reset-link';
import styles from './auth.module.css';

/** /auth/confirm-email-password (2.12): confirms the login email and sends a reset link; the reply shows for 3 s. */
export function ConfirmEmailPage() {
  const navigate = useNavigate();
  const member = useMemberInfo();
  const email = useEmailInput(() => storedEmail.get() ?? '', { invalidMessage: MESSAGES.emailInvalid }, member.data?.email ?? '');
  const send = useEmailResetLink();
  const notice = useNotice(3000);

  function submit(event: FormEvent) {
    event.preventDefault();
    const normalised = email.submit();
    if (normalised === null || send.isPending) return;
    send.mutate(normalised, {
      onSuccess: (answer) => notice.show(answerText(answer, 'Check your email for a link to reset your password.')),
      onError: (failure) => notice.show(errorText(failure, MESSAGES.emailNotReachable)),
    });
  }

  return (
    <AuthCard title="Confirm Email" subtitle="We will send a link to reset your password to this address.">
      <form className={styles.form} onSubmit={submit} noValidate>
        <EmailField label="Email (login)" autoComplete="email" {...email.field} />
        <div className={styles.actions}>
          <Button variant="secondary" onClick={() => navigate(-1)}>
            Cancel
          </Button>
          <Button type="submit" disabled={send.isPending}>
            Reset Password
          </Button>
        </div>
      </form>
      <Notice message={notice.message} />
    </AuthCard>
  );
}
