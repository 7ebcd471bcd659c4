import { useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { CheckboxField, SelectField, TextField } from '@/components/ui/field';
import { Spinner } from '@/components/ui/spinner';
import { Stepper } from '@/components/ui/stepper';
import { paths } from '@/config/paths';
import { errorText } from '@/lib/api-client';
import { payerOptions } from '@/lib/insurance';
import { memberKeys, useMemberInfo, type Member, type Relation } from '@/lib/member';
import { redirectTarget, selectedDependent } from '@/lib/storage';
import { dateError, emailError, formatPhone, maskDate, memberIdError, MESSAGES, normaliseEmail, PHONE_INPUT_MAX_LENGTH, phoneError, requiredError, usDateToIso } from '@/lib/validation';
import { useConfirmFamilyMember, useCreateFamilyMember, useSetFamilyProvider, type FamilyMemberRequest } from '../api/family-member';
import { relationOptions } from '../utils/eligibility-form';
import styles from './eligibility.module.css';

export const ADD_FAMILY_STEPS = ['Select Provider', 'Create account', 'Verify your eligibility', 'Add Family Member', 'Schedule your first visit'];

export const FAMILY_TEXTS = {
  notConfirmed: "Oops. We were not able to confirm your family member's eligibility.",
  added: "Success! You've added a dependent",
  enrolled: 'Dependent Enrolled Successfully',
  pediatric: 'This clinic does not offer pediatric services',
  findAnother: 'Please find another DPC clinic for this dependent',
} as const;

type FamilyDialog = 'checking' | 'exists' | 'not-confirmed' | 'added' | 'added-no-provider' | 'pediatric' | 'enrolled' | 'enrol-error' | 'error' | null;

/** Today as MM/DD/YYYY: the form's default date of birth. */
function today(): string {
  const now = new Date();
  return `${String(now.getMonth() + 1).padStart(2, '0')}/${String(now.getDate()).padStart(2, '0')}/${now.getFullYear()}`;
}

/** /add-family-member (2.5): a Self subscriber adds a spouse or dependent; the insurance is the subscriber's. */
export function AddFamilyMemberPage() {
  const member = useMemberInfo();
  if (member.isPending && member.fetchStatus !== 'idle') return <Spinner label="Loading your information" />;
  return <AddFamilyForm member={member.data ?? null} />;
}

function AddFamilyForm({ member }: { member: Member | null }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const create = useCreateFamilyMember();
  const confirm = useConfirmFamilyMember();
  const enrol = useSetFamilyProvider();
  const payers = payerOptions(member, member?.plans ?? []);
  const plan = payers.flatMap((payer) => payer.plans).find((item) => item.planId === member?.planId);

  const blank = { relation: '' as Relation | '', firstName: '', lastName: '', dob: today(), gender: '', email: '', phone: '', useMyContact: false, memberId: '' };
  const [values, setValues] = useState(blank);
  const [touched, setTouched] = useState(false);
  const [dialog, setDialog] = useState<FamilyDialog>(null);
  const [message, setMessage] = useState('');
  // Kept after a failed confirmation, so a retry only confirms again (revise mode).
  const [createdId, setCreatedId] = useState<number | null>(null);

  const spouse = values.relation === 'Spouse';
  const usesMine = values.useMyContact && !spouse;
  const email = usesMine ? (member?.email ?? '') : values.email;
  const phone = usesMine ? formatPhone(member?.phone ?? '') : values.phone;
  const errors = {
    relation: requiredError(values.relation),
    firstName: requiredError(values.firstName),
    lastName: requiredError(values.lastName),
    dob: dateError(values.dob),
    gender: requiredError(values.gender),
    email: emailError(email, { requiredMessage: MESSAGES.required }),
    phone: phoneError(phone),
    memberId: memberIdError(values.memberId),
    plan: member?.planId ? null : MESSAGES.required,
  };
  const valid = Object.values(errors).every((error) => error === null);
  const busy = create.isPending || confirm.isPending || enrol.isPending;
  const set = <K extends keyof typeof values>(key: K) => (value: (typeof values)[K]) => setValues((current) => ({ ...current, [key]: value }));
  // Finishing goes back to the account details (started there, or from the eligibility page), else to the marketplace.
  const startedFromEligibility = (useLocation().state as { from?: string } | null)?.from === paths.confirmPlanInformation.path;
  const finishTarget = redirectTarget.get() === paths.accountDetails.path || startedFromEligibility ? paths.accountDetails.path : paths.marketplace.path;

  function request(): FamilyMemberRequest {
    return {
      subscriberRelation: values.relation as Relation,
      firstName: values.firstName.trim(),
      lastName: values.lastName.trim(),
      dob: usDateToIso(values.dob)!,
      gender: values.gender,
      memberId: values.memberId.trim(),
      planId: member?.planId ?? '',
      payerId: member?.payerId ?? '',
      groupId: member?.groupId ?? '',
      companyName: member?.companyName ?? null,
      email: normaliseEmail(email),
      phone: phone.trim(),
      useMyContact: usesMine,
    };
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (!valid || busy) return;
    const body = request();
    setDialog('checking');
    let id = createdId;
    if (id === null) {
      try {
        id = (await create.mutateAsync(body)).id;
        setCreatedId(id);
      } catch (failure) {
        setMessage(errorText(failure, MESSAGES.somethingWrong));
        setDialog('exists');
        return;
      }
    }
    try {
      const answer = await confirm.mutateAsync({ id, body });
      if (!answer.eligible) {
        setDialog('not-confirmed');
        return;
      }
      setCreatedId(null);
      selectedDependent.set(id);
      void queryClient.invalidateQueries({ queryKey: memberKeys.all });
      const covered = answer.pediatric?.covered;
      if (!member?.providerId || !member.locationId) setDialog('added-no-provider');
      else if (covered === 0 || covered === false) setDialog('pediatric');
      else setDialog('added');
    } catch (failure) {
      setMessage(errorText(failure, MESSAGES.somethingWrong));
      setDialog('error');
    }
  }

  function enrolSameProvider() {
    const id = selectedDependent.get();
    if (!id || !member?.providerId || !member.locationId) return;
    enrol.mutate(
      { id, providerId: member.providerId, locationId: member.locationId },
      {
        onSuccess: () => {
          void queryClient.invalidateQueries({ queryKey: memberKeys.all });
          setDialog('enrolled');
        },
        onError: (failure) => {
          selectedDependent.set(null);
          setMessage(errorText(failure, MESSAGES.somethingWrong));
          setDialog('enrol-error');
        },
      },
    );
  }

  function addAnother() {
    selectedDependent.set(null);
    setValues(blank);
    setTouched(false);
    setCreatedId(null);
    setDialog(null);
  }

  function finish() {
    selectedDependent.set(null);
    navigate(finishTarget);
  }

  function findProvider() {
    navigate(paths.marketplace.getHref({ selectProvider: 'true' }));
  }

  return (
    <div className={styles.page}>
      <Stepper steps={ADD_FAMILY_STEPS} current={3} label="Enrolment steps" />
      <header className={styles.header}>
        <h1>Add a family member</h1>
        <p className={styles.muted}>Your family member shares your health plan. Enter their details as on their insurance card.</p>
      </header>
      <form className={styles.form} onSubmit={(event) => void submit(event)} noValidate>
        <fieldset className={styles.fieldset}>
          <legend>Family member</legend>
          <SelectField
            label="Relationship"
            placeholder="Select"
            options={relationOptions(true).map((relation) => ({ value: relation, label: relation }))}
            value={values.relation}
            onChange={(value) => set('relation')(value as Relation)}
            error={touched ? errors.relation : null}
          />
          <div className={styles.row}>
            <TextField label="First name" value={values.firstName} onChange={set('firstName')} error={touched ? errors.firstName : null} />
            <TextField label="Last name" value={values.lastName} onChange={set('lastName')} error={touched ? errors.lastName : null} />
          </div>
          <div className={styles.row}>
            <TextField label="Date of birth" placeholder="MM/DD/YYYY" inputMode="numeric" maxLength={10} value={values.dob} onChange={(value) => set('dob')(maskDate(value))} error={touched ? errors.dob : null} />
            <SelectField
              label="Gender"
              placeholder="Select"
              options={[
                { value: 'f', label: 'Female' },
                { value: 'm', label: 'Male' },
              ]}
              value={values.gender}
              onChange={set('gender')}
              error={touched ? errors.gender : null}
            />
          </div>
        </fieldset>
        <fieldset className={styles.fieldset}>
          <legend>Contact</legend>
          {!spouse ? <CheckboxField label="Use my contact information" checked={values.useMyContact} onChange={set('useMyContact')} /> : null}
          <div className={styles.row}>
            <TextField label="Email" type="email" value={email} disabled={usesMine} onChange={set('email')} onBlur={() => set('email')(normaliseEmail(values.email))} error={touched ? errors.email : null} />
            <TextField
              label="Mobile phone"
              type="tel"
              placeholder="XXX XXX XXXX"
              maxLength={PHONE_INPUT_MAX_LENGTH}
              value={phone}
              disabled={usesMine}
              onChange={(value) => set('phone')(formatPhone(value))}
              error={touched ? errors.phone : null}
            />
          </div>
        </fieldset>
        <fieldset className={styles.fieldset}>
          <legend>Insurance</legend>
          <TextField label="Member ID" value={values.memberId} onChange={set('memberId')} error={touched ? errors.memberId : null} />
          <SelectField
            label="Health plan"
            value={member?.planId ?? ''}
            onChange={() => {}}
            options={member?.planId ? [{ value: member.planId, label: plan?.name ?? member.planName ?? member.planId }] : []}
            placeholder="Your plan"
            disabled
            hint="Copied from your account"
            error={touched ? errors.plan : null}
          />
        </fieldset>
        <div className={styles.actions}>
          <Button variant="secondary" onClick={finish}>
            Cancel
          </Button>
          <Button type="submit" disabled={!valid || busy}>
            Confirm Eligibility
          </Button>
        </div>
      </form>

      <Dialog open={dialog === 'checking'} title="Checking eligibility" onClose={() => {}}>
        <Spinner label="Checking your family member's eligibility" />
      </Dialog>
      <Dialog
        open={dialog === 'exists'}
        title="We could not add this family member"
        onClose={() => setDialog(null)}
        footer={
          <>
            <Button variant="secondary" onClick={addAnother}>
              Add another dependent
            </Button>
            <Button onClick={() => setDialog(null)}>Okay</Button>
          </>
        }
      >
        <p>{message}</p>
      </Dialog>
      <Dialog
        open={dialog === 'not-confirmed'}
        title={FAMILY_TEXTS.notConfirmed}
        onClose={() => setDialog(null)}
        footer={
          <>
            <Button variant="secondary" onClick={finish}>
              Fix later
            </Button>
            <Button onClick={() => setDialog(null)}>Revise Information</Button>
          </>
        }
      >
        <p>Please review and update the information, or contact support.</p>
      </Dialog>
      <Dialog
        open={dialog === 'added'}
        title={FAMILY_TEXTS.added}
        onClose={finish}
        footer={
          <>
            <Button variant="secondary" onClick={findProvider}>
              Find another Provider
            </Button>
            <Button onClick={enrolSameProvider} disabled={enrol.isPending}>
              Enroll in the same DPC as main account
            </Button>
          </>
        }
      >
        <p>Choose the provider for {values.firstName || 'your family member'}.</p>
      </Dialog>
      <Dialog open={dialog === 'added-no-provider'} title={FAMILY_TEXTS.added} onClose={finish} footer={<Button onClick={findProvider}>Select a provider</Button>}>
        <p>Now select a provider for {values.firstName || 'your family member'}.</p>
      </Dialog>
      <Dialog open={dialog === 'pediatric'} title="Pediatric provider needed" onClose={finish} footer={<Button onClick={findProvider}>Select a provider</Button>}>
        <p>
          {FAMILY_TEXTS.pediatric}. {FAMILY_TEXTS.findAnother}.
        </p>
      </Dialog>
      <Dialog
        open={dialog === 'enrolled'}
        title={FAMILY_TEXTS.enrolled}
        onClose={finish}
        footer={
          <>
            <Button variant="secondary" onClick={addAnother}>
              Add another dependent
            </Button>
            <Button onClick={finish}>Okay</Button>
          </>
        }
      >
        <p>
          {values.firstName || 'Your family member'} is enrolled with {member?.location?.name ?? 'your provider'}.
        </p>
      </Dialog>
      <Dialog open={dialog === 'enrol-error'} title={`Something went wrong while selecting for ${values.firstName || 'your family member'}'s provider.`} onClose={finish} footer={<Button onClick={finish}>Okay</Button>}>
        <p>{message}</p>
      </Dialog>
      <Dialog open={dialog === 'error'} title="Oops. Something went wrong" onClose={() => setDialog(null)} footer={<Button onClick={() => setDialog(null)}>Okay</Button>}>
        <p>{message}</p>
      </Dialog>
    </div>
  );
}
