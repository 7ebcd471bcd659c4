import type { FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { FormActions } from '@/components/forms/form-actions';
import { MemberIdField } from '@/components/forms/insurance-fields';
import { EmailField, GenderField, NameFields, PhoneField, RelationField, type PersonValues } from '@/components/forms/person-fields';
import { useFormFields } from '@/components/forms/use-form-fields';
import { AuthCard } from '@/components/ui/auth-card';
import { TextField } from '@/components/ui/field';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { queryKeys } from '@/api/query-keys';
import { personalInfoBody, useMemberInfo, type Member } from '@/lib/member';
import { storedEmployerName, storedUser } from '@/lib/storage';
import { displayPhone, emailError, MESSAGES, normaliseEmail, phoneError, requiredError } from '@/lib/validation';
import { useCheckEligibility } from '@/api/auth/check-eligibility';
import { useUpdatePersonalInfo } from '@/api/account/personal-info';
import styles from './auth.module.css';

interface PersonalValues extends PersonValues {
  zipCode: string;
  memberId: string;
  groupId: string;
  payerId: string;
  planId: string;
  relation: string;
}

/** The personal info form's rules (section 5): everything but dob and zip code is required. */
export function personalInfoErrors(values: PersonalValues): Partial<Record<keyof PersonalValues, string>> {
  const errors: Partial<Record<keyof PersonalValues, string>> = {};
  for (const key of ['firstName', 'lastName', 'gender', 'memberId', 'groupId', 'payerId', 'planId'] as const) {
    const message = requiredError(values[key]);
    if (message) errors[key] = message;
  }
  const email = emailError(values.email, { requiredMessage: MESSAGES.required });
  if (email) errors.email = email;
  const phone = phoneError(values.phone);
  if (phone) errors.phone = phone;
  return errors;
}

/** /auth/personal-info (2.14): saves the member, then checks eligibility; either failure goes to the error alert. */
export function PersonalInfoPage() {
  const member = useMemberInfo();
  if (member.isPending && member.fetchStatus !== 'idle') return <Spinner label="Loading your information" />;
  return <PersonalInfoForm member={member.data ?? null} />;
}

function PersonalInfoForm({ member }: { member: Member | null }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const save = useUpdatePersonalInfo();
  const eligibility = useCheckEligibility();
  const form = useFormFields<PersonalValues>(
    () => ({
      firstName: member?.firstName ?? '',
      lastName: member?.lastName ?? '',
      dob: member?.dob ?? '',
      gender: member?.gender ?? '',
      email: member?.email ?? '',
      phone: displayPhone(member?.phone),
      zipCode: member?.zipCode ?? '',
      memberId: member?.memberId ?? '',
      groupId: member?.groupId ?? '',
      payerId: member?.payerId ?? '',
      planId: member?.planId ?? '',
      relation: member?.subscriberRelation === 'Spouse' ? 'Spouse' : 'Self',
    }),
    personalInfoErrors,
    { touchOnBlur: false },
  );
  const { values, field } = form;
  const busy = save.isPending || eligibility.isPending;

  async function submit(event: FormEvent) {
    event.preventDefault();
    form.touchAll();
    if (!form.valid || busy) return;
    const { relation: _relation, ...fields } = values;
    const body = personalInfoBody(member, {
      ...Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, value.trim()])),
      subscriberRelation: values.relation === 'Spouse' ? 'Spouse' : 'Self',
      gender: values.gender as Member['gender'],
      dob: values.dob || null,
      zipCode: values.zipCode || null,
      email: normaliseEmail(values.email),
    });
    try {
      const saved = await save.mutateAsync(body);
      storedUser.set(saved);
      const answer = await eligibility.mutateAsync(saved ?? body);
      const employer = typeof answer?.employer === 'string' ? answer.employer : answer?.employer?.companyName;
      if (employer) storedEmployerName.set(employer);
      await queryClient.invalidateQueries({ queryKey: queryKeys.member.all });
      navigate(paths.authAlert.getHref('updated-info'));
    } catch (failure) {
      console.warn('personal info save failed', failure);
      navigate(paths.authAlert.getHref('error'));
    }
  }

  return (
    <AuthCard title="Personal Info" subtitle="Keep your details as they appear on your insurance card." wide>
      <form className={styles.form} onSubmit={(event) => void submit(event)} noValidate>
        <div className={styles.grid}>
          <NameFields firstName={field('firstName')} lastName={field('lastName')} />
          <TextField label="Date of birth" type="date" {...field('dob')} />
          <GenderField {...field('gender')} />
          <EmailField {...field('email')} />
          <PhoneField label="Phone" placeholder="000-000-0000" {...field('phone')} />
          <TextField label="Home zip code" inputMode="numeric" value={values.zipCode} onChange={(value) => form.set('zipCode', value.replace(/\D/g, '').slice(0, 5))} />
          <RelationField relations={['Self', 'Spouse']} placeholder={null} {...field('relation')} />
          <MemberIdField {...field('memberId')} />
          <TextField label="Group ID" {...field('groupId')} />
          <TextField label="Payer ID" {...field('payerId')} />
          <TextField label="Plan ID" {...field('planId')} />
        </div>
        <FormActions className={styles.actions} onCancel={() => navigate(-1)} submitLabel="Save" disabled={busy} />
      </form>
    </AuthCard>
  );
}
