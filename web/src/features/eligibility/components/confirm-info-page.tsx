import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { PhoneField } from '@/components/forms/person-fields';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { TextField } from '@/components/ui/field';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { errorText } from '@/lib/api-client';
import { useMemberInfo, type Member } from '@/lib/member';
import { redirectTarget, selectedProvider } from '@/lib/storage';
import { displayPhone, MESSAGES, phoneError, requiredError } from '@/lib/validation';
import { useRequestContact } from '@/api/account/contact';
import { redirectPath } from '../utils/eligibility-form';
import { EnrolmentStepper } from './confirm-plan-page';
import { useTokenFromQuery } from './use-token-from-query';
import styles from './eligibility.module.css';

/** What the success dialog promises: the request is recorded and emailed to support (docs/accounts-contract.md). */
export const CONTACT_PROMISE = 'A representative will contact you shortly to complete your enrolment.';

/**
 * /confirm-info (2.4): the short last sign-up step, a name and a mobile phone; a representative
 * calls back. The request needs the member's account (the link's token), so a visitor without
 * one is asked to log in first.
 */
export function ConfirmInfoPage() {
  useTokenFromQuery({ clearAll: true });
  const member = useMemberInfo();
  if (member.isPending && member.fetchStatus !== 'idle') return <Spinner label="Loading your information" />;
  if (!member.data) {
    return (
      <div className={`${styles.page} ${styles.narrow}`}>
        <Alert tone="info" title="Please log in to continue">
          Log in to tell us how to reach you. <Link to={paths.login.path}>Login</Link>
        </Alert>
      </div>
    );
  }
  return <ConfirmInfoForm member={member.data} />;
}

function ConfirmInfoForm({ member }: { member: Member }) {
  const navigate = useNavigate();
  const save = useRequestContact();
  const [values, setValues] = useState({ firstName: member.firstName ?? '', lastName: member.lastName ?? '', phone: displayPhone(member.phone) });
  const [touched, setTouched] = useState(false);
  const [done, setDone] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const errors = { firstName: requiredError(values.firstName), lastName: requiredError(values.lastName), phone: phoneError(values.phone) };
  const valid = Object.values(errors).every((message) => message === null);
  const target = redirectPath(redirectTarget.get());
  const hasProvider = Boolean(member.providerId ?? selectedProvider.get());

  function submit(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (!valid || save.isPending) return;
    setError(null);
    save.mutate(
      { firstName: values.firstName.trim(), lastName: values.lastName.trim(), phone: values.phone.trim() },
      {
        onSuccess: () => setDone(true),
        onError: (failure) => setError(errorText(failure, MESSAGES.somethingWrong)),
      },
    );
  }

  return (
    <div className={`${styles.page} ${styles.narrow}`}>
      <EnrolmentStepper member={member} hasProvider={hasProvider} current={3} />
      <header className={styles.header}>
        <h1>Confirm your information</h1>
        <p className={styles.muted}>Tell us how to reach you and a representative will contact you to finish your enrolment.</p>
      </header>
      {error ? <Alert tone="error">{error}</Alert> : null}
      <form className={styles.form} onSubmit={submit} noValidate>
        <fieldset className={styles.fieldset}>
          <legend>Your details</legend>
          <div className={styles.row}>
            <TextField label="First name" autoComplete="given-name" value={values.firstName} onChange={(v) => setValues((c) => ({ ...c, firstName: v }))} error={touched ? errors.firstName : null} />
            <TextField label="Last name" autoComplete="family-name" value={values.lastName} onChange={(v) => setValues((c) => ({ ...c, lastName: v }))} error={touched ? errors.lastName : null} />
          </div>
          <PhoneField value={values.phone} onChange={(v) => setValues((c) => ({ ...c, phone: v }))} error={touched ? errors.phone : null} />
        </fieldset>
        <div className={styles.actions}>
          <Button variant="secondary" onClick={() => navigate(target)}>
            Cancel
          </Button>
          <Button type="submit" disabled={save.isPending}>
            Confirm Information
          </Button>
        </div>
      </form>
      <Dialog open={done} title="Great! You're all set." onClose={() => navigate(target)} footer={<Button onClick={() => navigate(target)}>Okay</Button>}>
        <p>{CONTACT_PROMISE}</p>
      </Dialog>
    </div>
  );
}
