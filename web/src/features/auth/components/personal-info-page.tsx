import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { AuthCard } from '@/components/ui/auth-card';
import { Button } from '@/components/ui/button';
import { SelectField, TextField } from '@/components/ui/field';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { queryKeys } from '@/api/query-keys';
import { personalInfoBody, useMemberInfo, type Member } from '@/lib/member';
import { storedEmployerName, storedUser } from '@/lib/storage';
import { emailError, formatPhone, MESSAGES, normaliseEmail, PHONE_INPUT_MAX_LENGTH, phoneError, requiredError } from '@/lib/validation';
import { useCheckEligibility } from '@/api/auth/check-eligibility';
import { useUpdatePersonalInfo } from '@/api/account/personal-info';
import styles from './auth.module.css';

interface PersonalValues {
  firstName: string;
  lastName: string;
  dob: string;
  gender: string;
  email: string;
  phone: string;
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
  const [touched, setTouched] = useState(false);
  const [values, setValues] = useState<PersonalValues>({
    firstName: member?.firstName ?? '',
    lastName: member?.lastName ?? '',
    dob: member?.dob ?? '',
    gender: member?.gender ?? '',
    email: member?.email ?? '',
    phone: formatPhone(member?.phone ?? ''),
    zipCode: member?.zipCode ?? '',
    memberId: member?.memberId ?? '',
    groupId: member?.groupId ?? '',
    payerId: member?.payerId ?? '',
    planId: member?.planId ?? '',
    relation: member?.subscriberRelation === 'Spouse' ? 'Spouse' : 'Self',
  });
  const errors = personalInfoErrors(values);
  const valid = Object.keys(errors).length === 0;
  const busy = save.isPending || eligibility.isPending;
  const set = (key: keyof PersonalValues) => (value: string) => setValues((current) => ({ ...current, [key]: value }));
  const shown = (key: keyof PersonalValues) => (touched ? errors[key] : undefined);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (!valid || busy) return;
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
          <TextField label="First name" value={values.firstName} onChange={set('firstName')} error={shown('firstName')} />
          <TextField label="Last name" value={values.lastName} onChange={set('lastName')} error={shown('lastName')} />
          <TextField label="Date of birth" type="date" value={values.dob} onChange={set('dob')} />
          <SelectField
            label="Gender"
            placeholder="Select"
            options={[
              { value: 'f', label: 'Female' },
              { value: 'm', label: 'Male' },
            ]}
            value={values.gender}
            onChange={set('gender')}
            error={shown('gender')}
          />
          <TextField label="Email" type="email" value={values.email} onChange={set('email')} onBlur={() => set('email')(normaliseEmail(values.email))} error={shown('email')} />
          <TextField
            label="Phone"
            type="tel"
            placeholder="000-000-0000"
            maxLength={PHONE_INPUT_MAX_LENGTH}
            value={values.phone}
            onChange={(value) => set('phone')(formatPhone(value))}
            error={shown('phone')}
          />
          <TextField label="Home zip code" inputMode="numeric" value={values.zipCode} onChange={(value) => set('zipCode')(value.replace(/\D/g, '').slice(0, 5))} />
          <SelectField
            label="Relationship"
            options={[
              { value: 'Self', label: 'Self' },
              { value: 'Spouse', label: 'Spouse' },
            ]}
            value={values.relation}
            onChange={set('relation')}
          />
          <TextField label="Member ID" value={values.memberId} onChange={set('memberId')} error={shown('memberId')} />
          <TextField label="Group ID" value={values.groupId} onChange={set('groupId')} error={shown('groupId')} />
          <TextField label="Payer ID" value={values.payerId} onChange={set('payerId')} error={shown('payerId')} />
          <TextField label="Plan ID" value={values.planId} onChange={set('planId')} error={shown('planId')} />
        </div>
        <div className={styles.actions}>
          <Button variant="secondary" onClick={() => navigate(-1)}>
            Cancel
          </Button>
          <Button type="submit" disabled={busy}>
            Save
          </Button>
        </div>
      </form>
    </AuthCard>
  );
}
