import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { FormActions } from '@/components/forms/form-actions';
import { PhoneField } from '@/components/forms/person-fields';
import { useFormFields } from '@/components/forms/use-form-fields';
import { Alert } from '@/components/ui/alert';
import { Card } from '@/components/ui/card';
import { paths } from '@/config/paths';
import { errorText } from '@/lib/api-client';
import { fullName, type FamilyMember, type Member } from '@/lib/member';
import { displayPhone, MESSAGES, phoneError } from '@/lib/validation';
import { useUpdateFamilyMember } from '@/api/family/family-members';
import { useUpdateContact } from '@/api/account/contact';
import { familyUpdateBody } from '../utils/member-form-values';
import { WithMember } from './account-details-page';
import { AllSetDialog, BackLink, WithFamilyMember } from './edit-page-parts';
import styles from './account.module.css';

/** /account/edit-contact (2.20): the mobile phone only; `?id=` picks a family member. */
export function EditContactPage() {
  const [params] = useSearchParams();
  const id = params.get('id') ? Number(params.get('id')) : null;
  return <WithMember>{(member) => (id ? <WithFamilyMember id={id}>{(person) => <ContactForm member={member} person={person} />}</WithFamilyMember> : <ContactForm member={member} person={null} />)}</WithMember>;
}

function ContactForm({ member, person }: { member: Member; person: FamilyMember | null }) {
  const navigate = useNavigate();
  // The member's own phone is saved alone: the form asks for nothing else (docs/accounts-contract.md).
  const savePersonal = useUpdateContact();
  const saveFamily = useUpdateFamilyMember();
  const form = useFormFields(() => ({ phone: displayPhone((person ?? member).phone) }), (values) => ({ phone: phoneError(values.phone) }));
  const [done, setDone] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const busy = savePersonal.isPending || saveFamily.isPending;

  function submit(event: FormEvent) {
    event.preventDefault();
    form.touchAll();
    if (!form.valid || busy) return;
    setError(null);
    const phone = form.values.phone.trim();
    const onError = (failure: unknown) => setError(errorText(failure, MESSAGES.somethingWrong));
    if (person) saveFamily.mutate({ id: person.id, body: familyUpdateBody(person, { phone }) }, { onSuccess: () => setDone(true), onError });
    else savePersonal.mutate({ phone }, { onSuccess: () => setDone(true), onError });
  }

  return (
    <div className={`${styles.page} ${styles.narrow}`}>
      <BackLink to={paths.accountDetails.path} />
      <h1>Edit contact information{person ? ` of ${fullName(person)}` : ''}</h1>
      {error ? <Alert tone="error">{error}</Alert> : null}
      <Card>
        <form className={styles.form} onSubmit={submit} noValidate>
          <PhoneField {...form.field('phone')} />
          <p className={styles.muted}>
            Your email is your login: change it in <Link to={`${paths.accountDetails.path}?panel=settings`}>Settings</Link>.
          </p>
          <FormActions className={styles.formActions} onCancel={() => navigate(paths.accountDetails.path)} submitLabel="Save" disabled={busy} />
        </form>
      </Card>
      <AllSetDialog open={done} onDone={() => navigate(paths.accountDetails.path)}>
        <p>Contact Information confirmed</p>
      </AllSetDialog>
    </div>
  );
}
