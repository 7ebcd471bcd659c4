import { useRef, useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { CheckboxField, SelectField, TextField } from '@/components/ui/field';
import { Spinner } from '@/components/ui/spinner';
import { Stepper } from '@/components/ui/stepper';
import { paths } from '@/config/paths';
import { errorText } from '@/lib/api-client';
import { payerOptions } from '@/lib/insurance';
import { queryKeys } from '@/api/query-keys';
import { fullName, useMemberInfo, type FamilyMember, type Member, type Relation } from '@/lib/member';
import { redirectTarget, selectedDependent } from '@/lib/storage';
import {
  dateError,
  emailError,
  formatPhone,
  isoToUsDate,
  maskDate,
  memberIdError,
  MESSAGES,
  normaliseEmail,
  PHONE_INPUT_MAX_LENGTH,
  phoneError,
  requiredError,
  usDateToIso,
} from '@/lib/validation';
import { useSetProvider } from '@/api/enrolment/set-provider';
import { useConfirmFamilyMember, useCreateFamilyMember, useFamilyMember, type FamilyConfirmResponse, type FamilyMemberRequest } from '@/api/family/family-members';
import { ELIGIBILITY_TEXTS, relationOptions } from '../utils/eligibility-form';
import styles from './eligibility.module.css';

export const ADD_FAMILY_STEPS = ['Select Provider', 'Create account', 'Verify your eligibility', 'Add Family Member', 'Schedule your first visit'];

export const FAMILY_TEXTS = {
  /** eligible false (Fix later and Revise Information). */
  notConfirmed: "Oops. We were not able to confirm your dependent's eligibility.",
  reviewPrompt: 'Please review and update the information, or contact support.',
  /** The confirm/info call itself failed: the server's text below. */
  familyNotConfirmed: "Oops. We were not able to confirm your family member's eligibility.",
  accountExists: ELIGIBILITY_TEXTS.accountExists,
  retryTitle: 'We are having temporary issues',
  retry: 'Your information is saved. Our system will retry confirming your eligibility and notify you by email.',
  added: "Success! You've added a dependent",
  /** The account and marketplace flows: Okay and Add another dependent. */
  enrolled: 'Dependent Enrolled Successfully',
  /** The eligibility flow (2.5): I'm all set and Add another. */
  familyEnrolled: 'Family member enrolled',
  planConfirmed: 'Dependent Plan Information Confirmed',
  pediatric: 'This clinic does not offer pediatric services',
  findAnother: 'Please find another DPC clinic for this dependent',
  noDependent: 'No Dependent ID was found',
  providerNotFound: 'Provider not found',
} as const;

type FamilyDialog =
  | 'checking'
  | 'exists'
  | 'not-confirmed'
  | 'retry'
  | 'confirm-error'
  | 'added'
  | 'added-no-provider'
  | 'pediatric'
  | 'enrolled'
  | 'plan-confirmed'
  | 'enrol-error'
  | null;

type Field = 'relation' | 'firstName' | 'lastName' | 'dob' | 'gender' | 'email' | 'phone' | 'memberId' | 'plan';

/** The route state: where the flow started, and the family member to confirm again (revise mode). */
export interface AddFamilyState {
  from?: string;
  reviseId?: number;
}

/** Today as MM/DD/YYYY: the form's default date of birth. */
function today(): string {
  const now = new Date();
  return `${String(now.getMonth() + 1).padStart(2, '0')}/${String(now.getDate()).padStart(2, '0')}/${now.getFullYear()}`;
}

interface FamilyValues {
  relation: Relation | '';
  firstName: string;
  lastName: string;
  dob: string;
  gender: string;
  email: string;
  phone: string;
  useMyContact: boolean;
  memberId: string;
}

function blankValues(): FamilyValues {
  return { relation: '', firstName: '', lastName: '', dob: today(), gender: '', email: '', phone: '', useMyContact: false, memberId: '' };
}

/** A stored family member as the form shows them (revise mode). */
function storedValues(person: FamilyMember): FamilyValues {
  const relation = person.subscriberRelation === 'Spouse' || person.subscriberRelation === 'Dependent' ? person.subscriberRelation : '';
  return {
    relation,
    firstName: person.firstName ?? '',
    lastName: person.lastName ?? '',
    dob: isoToUsDate(person.dob) || today(),
    gender: person.gender === 'f' || person.gender === 'm' ? person.gender : '',
    email: person.email ?? '',
    phone: formatPhone(person.phone ?? ''),
    useMyContact: false,
    memberId: person.memberId ?? '',
  };
}

/** Which dialog an answer that did not confirm the family member opens, by its code. */
export function notConfirmedDialog(answer: FamilyConfirmResponse): 'exists' | 'retry' | 'not-confirmed' {
  if (answer.code === 'member_exists') return 'exists';
  if (answer.code === 'eligibility_unavailable' || answer.eligibility?.err?.chcDown) return 'retry';
  return 'not-confirmed';
}

/**
 * /add-family-member (2.5): a Self subscriber adds a spouse or dependent; the insurance is the
 * subscriber's. With `reviseId` in the route state (Confirm Eligibility in the family panel) the
 * stored family member is prefilled and only confirmed again.
 */
export function AddFamilyMemberPage() {
  const member = useMemberInfo();
  const state = (useLocation().state ?? null) as AddFamilyState | null;
  const reviseId = typeof state?.reviseId === 'number' && state.reviseId > 0 ? state.reviseId : null;
  const entry = useFamilyMember(reviseId);
  if (member.isPending && member.fetchStatus !== 'idle') return <Spinner label="Loading your information" />;
  if (reviseId !== null && entry.isPending) return <Spinner label="Loading your family member" />;
  return (
    <AddFamilyForm
      key={reviseId ?? 'new'}
      member={member.data ?? null}
      revise={reviseId !== null && entry.data ? { ...entry.data, id: entry.data.id ?? reviseId } : null}
      reviseError={reviseId !== null && entry.isError ? errorText(entry.error, MESSAGES.somethingWrong) : null}
      from={state?.from}
    />
  );
}

function AddFamilyForm({ member, revise, reviseError, from }: { member: Member | null; revise: FamilyMember | null; reviseError: string | null; from?: string }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const create = useCreateFamilyMember();
  const confirm = useConfirmFamilyMember();
  const enrol = useSetProvider();
  const payers = payerOptions(member, member?.plans ?? []);
  const planId = revise?.planId || member?.planId || '';
  const plan = payers.flatMap((payer) => payer.plans).find((item) => item.planId === planId);

  const [values, setValues] = useState<FamilyValues>(() => (revise ? storedValues(revise) : blankValues()));
  const [touched, setTouched] = useState<Partial<Record<Field, boolean>>>({});
  const [dialog, setDialog] = useState<FamilyDialog>(null);
  const [message, setMessage] = useState('');
  const [existsTitle, setExistsTitle] = useState<string>(FAMILY_TEXTS.accountExists);
  // A stored family member confirmed again from the family panel: only confirm/info is sent.
  const [reviseMode, setReviseMode] = useState(revise !== null);
  // Kept after a failed confirmation (or in revise mode), so a retry only confirms again.
  const [createdId, setCreatedId] = useState<number | null>(revise?.id ?? null);
  const inFlight = useRef(false);

  const spouse = values.relation === 'Spouse';
  const usesMine = values.useMyContact && !spouse;
  const email = usesMine ? (member?.email ?? '') : values.email;
  const phone = usesMine ? formatPhone(member?.phone ?? '') : values.phone;
  const errors: Record<Field, string | null> = {
    relation: requiredError(values.relation),
    firstName: requiredError(values.firstName),
    lastName: requiredError(values.lastName),
    dob: dateError(values.dob),
    gender: requiredError(values.gender),
    email: emailError(email, { requiredMessage: MESSAGES.required }),
    phone: phoneError(phone),
    memberId: memberIdError(values.memberId),
    plan: planId ? null : MESSAGES.required,
  };
  const valid = Object.values(errors).every((error) => error === null);
  const busy = create.isPending || confirm.isPending || enrol.isPending;
  const set = <K extends keyof FamilyValues>(key: K) => (value: FamilyValues[K]) => setValues((current) => ({ ...current, [key]: value }));
  const touch = (field: Field) => () => setTouched((current) => (current[field] ? current : { ...current, [field]: true }));
  const shown = (field: Field) => (touched[field] ? errors[field] : null);
  // The eligibility flow (started from /confirm-plan-information) ends with 'I'm all set' / 'Add another'.
  const startedFromEligibility = from === paths.confirmPlanInformation.path;
  // Finishing goes back to the account details (started there, or from the eligibility page), else to the marketplace.
  const finishTarget = redirectTarget.get() === paths.accountDetails.path || startedFromEligibility ? paths.accountDetails.path : paths.marketplace.path;
  const name = values.firstName.trim() || 'your family member';

  function request(): FamilyMemberRequest {
    return {
      subscriberRelation: values.relation as Relation,
      firstName: values.firstName.trim(),
      lastName: values.lastName.trim(),
      dob: usDateToIso(values.dob)!,
      gender: values.gender,
      memberId: values.memberId.trim(),
      planId,
      payerId: member?.payerId ?? '',
      groupId: member?.groupId ?? '',
      companyName: member?.companyName ?? null,
      email: normaliseEmail(email),
      phone: phone.trim(),
      useMyContact: usesMine,
    };
  }

  function showCreateFailure(failure: unknown) {
    const code = (failure as { code?: unknown } | null)?.code;
    setExistsTitle(code === 'member_exists' ? FAMILY_TEXTS.accountExists : MESSAGES.somethingWrong);
    setMessage(errorText(failure, MESSAGES.somethingWrong));
    setDialog('exists');
  }

  function showNotConfirmed(answer: FamilyConfirmResponse) {
    const next = notConfirmedDialog(answer);
    if (next === 'exists') {
      setExistsTitle(FAMILY_TEXTS.accountExists);
      setMessage(answer.message || FAMILY_TEXTS.accountExists);
    } else if (next === 'not-confirmed') {
      // Not on this plan is worth saying; wrong data only needs the prompt.
      setMessage(answer.code === 'not_eligible_on_plan' && answer.message ? answer.message : '');
    }
    setDialog(next);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setTouched({ relation: true, firstName: true, lastName: true, dob: true, gender: true, email: true, phone: true, memberId: true, plan: true });
    if (!valid || busy || inFlight.current) return;
    inFlight.current = true;
    try {
      const body = request();
      setDialog('checking');
      let id = createdId;
      if (id === null) {
        try {
          id = (await create.mutateAsync(body)).id;
          setCreatedId(id);
        } catch (failure) {
          showCreateFailure(failure);
          return;
        }
      }
      let answer: FamilyConfirmResponse;
      try {
        answer = await confirm.mutateAsync({ id, body });
      } catch (failure) {
        setMessage(errorText(failure, MESSAGES.somethingWrong));
        setDialog('confirm-error');
        return;
      }
      void queryClient.invalidateQueries({ queryKey: queryKeys.member.all });
      if (!answer.eligible) {
        showNotConfirmed(answer);
        return;
      }
      if (reviseMode) {
        setDialog('plan-confirmed');
        return;
      }
      setCreatedId(null);
      selectedDependent.set(id);
      const covered = answer.pediatric?.covered;
      if (!member?.providerId || !member.locationId) setDialog('added-no-provider');
      else if (covered === 0 || covered === false) setDialog('pediatric');
      else setDialog('added');
    } finally {
      inFlight.current = false;
    }
  }

  function enrolSameProvider() {
    const id = selectedDependent.get();
    if (!id) {
      setMessage(FAMILY_TEXTS.noDependent);
      setDialog('enrol-error');
      return;
    }
    if (!member?.providerId || !member.locationId) {
      selectedDependent.set(null);
      setMessage(FAMILY_TEXTS.providerNotFound);
      setDialog('enrol-error');
      return;
    }
    enrol.mutate(
      { dependentId: id, providerId: member.providerId, locationId: member.locationId },
      {
        onSuccess: () => {
          void queryClient.invalidateQueries({ queryKey: queryKeys.member.all });
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
    setValues(blankValues());
    setTouched({});
    setCreatedId(null);
    setReviseMode(false);
    setDialog(null);
  }

  function finish() {
    selectedDependent.set(null);
    // The account details (or marketplace) load again.
    void queryClient.invalidateQueries();
    navigate(finishTarget);
  }

  function findProvider() {
    navigate(paths.marketplace.getHref({ selectProvider: 'true' }));
  }

  return (
    <div className={styles.page}>
      <Stepper steps={ADD_FAMILY_STEPS} current={3} label="Enrolment steps" />
      <header className={styles.header}>
        <h1>{reviseMode ? 'Confirm eligibility' : 'Add a family member'}</h1>
        <p className={styles.muted}>
          {reviseMode
            ? `Review ${revise ? fullName(revise) : 'your family member'}'s details as on their insurance card, then confirm their eligibility.`
            : 'Your family member shares your health plan. Enter their details as on their insurance card.'}
        </p>
      </header>
      {reviseError ? (
        <Alert tone="error" title={FAMILY_TEXTS.familyNotConfirmed}>
          {reviseError}
        </Alert>
      ) : null}
      <form className={styles.form} onSubmit={(event) => void submit(event)} noValidate>
        <fieldset className={styles.fieldset}>
          <legend>Family member</legend>
          <SelectField
            label="Relationship"
            placeholder="Select"
            options={relationOptions(true).map((relation) => ({ value: relation, label: relation }))}
            value={values.relation}
            onChange={(value) => set('relation')(value as Relation)}
            onBlur={touch('relation')}
            error={shown('relation')}
          />
          <div className={styles.row}>
            <TextField label="First name" value={values.firstName} onChange={set('firstName')} onBlur={touch('firstName')} error={shown('firstName')} />
            <TextField label="Last name" value={values.lastName} onChange={set('lastName')} onBlur={touch('lastName')} error={shown('lastName')} />
          </div>
          <div className={styles.row}>
            <TextField
              label="Date of birth"
              placeholder="MM/DD/YYYY"
              inputMode="numeric"
              maxLength={10}
              value={values.dob}
              onChange={(value) => set('dob')(maskDate(value))}
              onBlur={touch('dob')}
              error={shown('dob')}
            />
            <SelectField
              label="Gender"
              placeholder="Select"
              options={[
                { value: 'f', label: 'Female' },
                { value: 'm', label: 'Male' },
              ]}
              value={values.gender}
              onChange={set('gender')}
              onBlur={touch('gender')}
              error={shown('gender')}
            />
          </div>
        </fieldset>
        <fieldset className={styles.fieldset}>
          <legend>Contact</legend>
          {!spouse ? <CheckboxField label="Use my contact information" checked={values.useMyContact} onChange={set('useMyContact')} /> : null}
          <div className={styles.row}>
            <TextField
              label="Email"
              type="email"
              value={email}
              disabled={usesMine}
              onChange={set('email')}
              onBlur={() => {
                set('email')(normaliseEmail(values.email));
                touch('email')();
              }}
              error={shown('email')}
            />
            <TextField
              label="Mobile phone"
              type="tel"
              placeholder="XXX XXX XXXX"
              maxLength={PHONE_INPUT_MAX_LENGTH}
              value={phone}
              disabled={usesMine}
              onChange={(value) => set('phone')(formatPhone(value))}
              onBlur={touch('phone')}
              error={shown('phone')}
            />
          </div>
        </fieldset>
        <fieldset className={styles.fieldset}>
          <legend>Insurance</legend>
          <TextField label="Member ID" value={values.memberId} onChange={set('memberId')} onBlur={touch('memberId')} error={shown('memberId')} />
          <SelectField
            label="Health plan"
            value={planId}
            onChange={() => {}}
            options={planId ? [{ value: planId, label: plan?.name ?? member?.planName ?? planId }] : []}
            placeholder="Your plan"
            disabled
            hint="Copied from your account"
            error={shown('plan')}
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
        title={existsTitle}
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
        {message && message !== existsTitle ? <p>{message}</p> : null}
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
        {message ? <p>{message}</p> : null}
        <p>{FAMILY_TEXTS.reviewPrompt}</p>
      </Dialog>
      <Dialog open={dialog === 'retry'} title={FAMILY_TEXTS.retryTitle} onClose={finish} footer={<Button onClick={finish}>Okay</Button>}>
        <p>{FAMILY_TEXTS.retry}</p>
      </Dialog>
      <Dialog open={dialog === 'confirm-error'} title={FAMILY_TEXTS.familyNotConfirmed} onClose={() => setDialog(null)} footer={<Button onClick={() => setDialog(null)}>Okay</Button>}>
        <p>{message}</p>
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
        <p>Choose the provider for {name}.</p>
      </Dialog>
      <Dialog open={dialog === 'added-no-provider'} title={FAMILY_TEXTS.added} onClose={finish} footer={<Button onClick={findProvider}>Select a provider</Button>}>
        <p>Now select a provider for {name}.</p>
      </Dialog>
      <Dialog open={dialog === 'pediatric'} title="Pediatric provider needed" onClose={finish} footer={<Button onClick={findProvider}>Select a provider</Button>}>
        <p>
          {FAMILY_TEXTS.pediatric}. {FAMILY_TEXTS.findAnother}.
        </p>
      </Dialog>
      <Dialog
        open={dialog === 'enrolled'}
        title={startedFromEligibility ? FAMILY_TEXTS.familyEnrolled : FAMILY_TEXTS.enrolled}
        onClose={finish}
        footer={
          <>
            <Button variant="secondary" onClick={addAnother}>
              {startedFromEligibility ? 'Add another' : 'Add another dependent'}
            </Button>
            <Button onClick={finish}>{startedFromEligibility ? "I'm all set" : 'Okay'}</Button>
          </>
        }
      >
        <p>
          {values.firstName.trim() || 'Your family member'} is enrolled with {member?.location?.name ?? 'your provider'}.
        </p>
      </Dialog>
      <Dialog
        open={dialog === 'plan-confirmed'}
        title={FAMILY_TEXTS.planConfirmed}
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
          {values.firstName.trim() || 'Your family member'}&apos;s eligibility is confirmed.
          {revise && !revise.providerId ? ' You can select a provider for them from Family Members.' : ''}
        </p>
      </Dialog>
      <Dialog open={dialog === 'enrol-error'} title={`Something went wrong while selecting for ${values.firstName.trim() || 'your family member'}'s provider.`} onClose={finish} footer={<Button onClick={finish}>Okay</Button>}>
        <p>{message}</p>
      </Dialog>
    </div>
  );
}
