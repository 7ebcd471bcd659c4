/**
 * The account edit screens (2.18 to 2.21): subscriber, dependent, contact, the personal edit
 * form and the mobile add/edit family forms. They save through PUT /member/app/personal/info and
 * PUT /member/app/family/member/{id}; a call the server does not offer yet shows its message.
 */
import { useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { ChevronLeftIcon } from '@/components/icons/icons';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Dialog } from '@/components/ui/dialog';
import { TextField } from '@/components/ui/field';
import { Notice, useNotice } from '@/components/ui/notice';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { answerText, errorText } from '@/lib/api-client';
import { payerOptions } from '@/lib/insurance';
import { fullName, personalInfoBody, useMemberInfo, type FamilyMember, type Member, type Relation } from '@/lib/member';
import { redirectTarget, selectedDependent } from '@/lib/storage';
import { formatPhone, isoToUsDate, MESSAGES, PHONE_INPUT_MAX_LENGTH, phoneError, usDateToIso } from '@/lib/validation';
import { useCreateFamilyMember, useDeleteFamilyMember, useFamilyMember, useUpdateFamilyMember, type FamilyMemberUpdate } from '@/api/family/family-members';
import { usePlans } from '@/api/eligibility/get-plans';
import { useUpdatePersonalInfo } from '@/api/account/personal-info';
import { WithMember } from './account-details-page';
import { REMOVE_TEXTS } from './family-panel';
import { MemberForm, type MemberFormValues } from './member-form';
import styles from './account.module.css';

export const ALL_SET_TEXT = "Great! You're all set.";

/** The fields both a member and a family member may carry. */
type Person = Pick<FamilyMember, 'firstName' | 'lastName'> & {
  subscriberRelation?: string | null;
  dob?: string | null;
  gender?: string | null;
  companyName?: string | null;
  employer?: { companyName?: string | null } | null;
  email?: string | null;
  phone?: string | null;
  zipCode?: string | null;
  memberId?: string | null;
  groupId?: string | null;
  payerId?: string | null;
  planId?: string | null;
};

function formValues(person: Person, fallbackEmployer?: string | null): Partial<MemberFormValues> {
  return {
    relation: person.subscriberRelation ?? '',
    firstName: person.firstName ?? '',
    lastName: person.lastName ?? '',
    dob: isoToUsDate(person.dob),
    gender: person.gender ?? '',
    employer: person.companyName ?? person.employer?.companyName ?? fallbackEmployer ?? '',
    email: person.email ?? '',
    phone: person.phone ?? '',
    zipCode: person.zipCode ?? '',
    memberId: person.memberId ?? '',
    groupId: person.groupId ?? '',
    payerId: person.payerId ?? '',
    planId: person.planId ?? '',
  };
}

/** The form's values as the member calls take them (dates back to YYYY-MM-DD). */
function memberBody(values: MemberFormValues) {
  const { relation, employer: _employer, dob, ...rest } = values;
  return { ...rest, subscriberRelation: (relation || undefined) as Relation | undefined, dob: usDateToIso(dob) ?? dob, gender: values.gender as Member['gender'] };
}

/**
 * The body of PUT /member/app/family/member/{id}: firstName, lastName, email, gender, zipCode,
 * phone and dob (YYYY-MM-DD), from the stored record with `changes` over it. Empty optional
 * values are left out rather than sent blank.
 */
export function familyUpdateBody(person: Pick<FamilyMember, 'firstName' | 'lastName' | 'email' | 'gender' | 'zipCode' | 'phone' | 'dob'>, changes: Partial<Record<keyof FamilyMemberUpdate, string>> = {}): Partial<FamilyMemberUpdate> {
  const merged: Record<string, string | null | undefined> = {
    firstName: person.firstName,
    lastName: person.lastName,
    email: person.email,
    gender: person.gender,
    zipCode: person.zipCode,
    phone: person.phone,
    dob: person.dob,
    ...changes,
  };
  const body: Partial<FamilyMemberUpdate> = {};
  for (const key of ['firstName', 'lastName', 'email', 'gender', 'zipCode', 'phone', 'dob'] as const) {
    const value = merged[key]?.trim();
    if (value) body[key] = value;
  }
  return body;
}

function BackLink({ to, label = 'Back' }: { to: string; label?: string }) {
  return (
    <Link to={to} className={styles.back}>
      <ChevronLeftIcon size={18} /> {label}
    </Link>
  );
}

/** Where Cancel goes on the edit screens: the stored redirect (home or account details). */
function cancelTarget(): string {
  return redirectTarget.get() === paths.home.path ? paths.home.path : paths.accountDetails.path;
}

/** /account/edit-subscriber (2.18). */
export function EditSubscriberPage() {
  const navigate = useNavigate();
  const save = useUpdatePersonalInfo();
  const member = useMemberInfo();
  // The member info's payers name the plans; the plans call is only needed without them.
  const plans = usePlans(member.data !== undefined && !(member.data.payers && member.data.payers.length > 0));
  const [done, setDone] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <WithMember>
      {(member) => (
        <div className={`${styles.page} ${styles.narrow}`}>
          <BackLink to={cancelTarget()} />
          <h1>Edit subscriber information</h1>
          {error ? <Alert tone="error">{error}</Alert> : null}
          <Card>
            <MemberForm
              fields={['relation', 'firstName', 'lastName', 'dob', 'gender', 'employer', 'memberId', 'planId']}
              initial={formValues(member)}
              planOptions={payerOptions(member, plans.data ?? [])
                .flatMap((payer) => payer.plans)
                .map((plan) => ({ value: plan.planId, label: plan.name }))}
              submitLabel="Save Information"
              busy={save.isPending}
              onCancel={() => navigate(cancelTarget())}
              onSubmit={(values) => {
                setError(null);
                save.mutate(personalInfoBody(member, memberBody(values)), { onSuccess: () => setDone(true), onError: (failure) => setError(errorText(failure, MESSAGES.somethingWrong)) });
              }}
            />
          </Card>
          <Dialog open={done} title={ALL_SET_TEXT} onClose={() => navigate(paths.accountDetails.path)} footer={<Button onClick={() => navigate(paths.accountDetails.path)}>Okay</Button>}>
            <p>A representative from the clinic will reach out to schedule your first appointment</p>
          </Dialog>
        </div>
      )}
    </WithMember>
  );
}

/** Loads a family member by route id. */
function WithFamilyMember({ id, children }: { id: number; children: (person: FamilyMember) => React.ReactNode }) {
  const person = useFamilyMember(id);
  if (person.isPending) return <Spinner label="Loading family member" />;
  if (person.isError || !person.data) {
    return (
      <div className={`${styles.page} ${styles.narrow}`}>
        <BackLink to={paths.accountDetails.path} />
        <Alert tone="info" title="This family member is not available right now">
          {errorText(person.error, MESSAGES.tryLater)}
        </Alert>
      </div>
    );
  }
  return <>{children(person.data)}</>;
}

/** /account/edit-dependent/{id} (2.19): the desktop family member form. */
export function EditDependentPage() {
  const id = Number(useParams().id);
  const navigate = useNavigate();
  const save = useUpdateFamilyMember();
  const [done, setDone] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <WithMember>
      {(member) => (
        <WithFamilyMember id={id}>
          {(person) => (
            <div className={`${styles.page} ${styles.narrow}`}>
              <BackLink to={cancelTarget()} />
              <h1>Edit {fullName(person)}</h1>
              {error ? <Alert tone="error">{error}</Alert> : null}
              <Card>
                <MemberForm
                  fields={['relation', 'firstName', 'lastName', 'dob', 'gender', 'employer', 'memberId', 'planId']}
                  initial={formValues(person, member.companyName)}
                  relationOptions={['Spouse', 'Dependent']}
                  // The relationship, member ID and plan belong to the insurance and are not edited here.
                  locked={['relation', 'memberId', 'planId']}
                  note={<p className={styles.muted}>Changing the name or date of birth asks for the eligibility to be confirmed again.</p>}
                  submitLabel="Save Information"
                  busy={save.isPending}
                  onCancel={() => navigate(cancelTarget())}
                  onSubmit={(values) => {
                    setError(null);
                    const body = memberBody(values);
                    save.mutate(
                      { id, body: familyUpdateBody(person, { firstName: body.firstName, lastName: body.lastName, dob: body.dob, gender: values.gender }) },
                      { onSuccess: () => setDone(true), onError: (failure) => setError(errorText(failure, MESSAGES.somethingWrong)) },
                    );
                  }}
                />
              </Card>
              <Dialog open={done} title={ALL_SET_TEXT} onClose={() => navigate(cancelTarget())} footer={<Button onClick={() => navigate(cancelTarget())}>Okay</Button>}>
                <p>{fullName(person)}&apos;s information is saved.</p>
              </Dialog>
            </div>
          )}
        </WithFamilyMember>
      )}
    </WithMember>
  );
}

/** /account/edit-contact (2.20): the mobile phone only; `?id=` picks a family member. */
export function EditContactPage() {
  const [params] = useSearchParams();
  const id = params.get('id') ? Number(params.get('id')) : null;
  return <WithMember>{(member) => (id ? <WithFamilyMember id={id}>{(person) => <ContactForm member={member} person={person} />}</WithFamilyMember> : <ContactForm member={member} person={null} />)}</WithMember>;
}

function ContactForm({ member, person }: { member: Member; person: FamilyMember | null }) {
  const navigate = useNavigate();
  const savePersonal = useUpdatePersonalInfo();
  const saveFamily = useUpdateFamilyMember();
  const [phone, setPhone] = useState(formatPhone((person ?? member).phone ?? ''));
  const [touched, setTouched] = useState(false);
  const [done, setDone] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const message = phoneError(phone);
  const busy = savePersonal.isPending || saveFamily.isPending;

  function submit(event: React.FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (message || busy) return;
    setError(null);
    const onError = (failure: unknown) => setError(errorText(failure, MESSAGES.somethingWrong));
    if (person) {
      saveFamily.mutate(
        { id: person.id, body: familyUpdateBody(person, { phone: phone.trim() }) },
        { onSuccess: () => setDone(true), onError },
      );
    } else {
      savePersonal.mutate(personalInfoBody(member, { phone: phone.trim() }), { onSuccess: () => setDone(true), onError });
    }
  }

  return (
    <div className={`${styles.page} ${styles.narrow}`}>
      <BackLink to={paths.accountDetails.path} />
      <h1>Edit contact information{person ? ` of ${fullName(person)}` : ''}</h1>
      {error ? <Alert tone="error">{error}</Alert> : null}
      <Card>
        <form className={styles.form} onSubmit={submit} noValidate>
          <TextField
            label="Mobile phone"
            type="tel"
            placeholder="XXX XXX XXXX"
            maxLength={PHONE_INPUT_MAX_LENGTH}
            value={phone}
            onChange={(value) => setPhone(formatPhone(value))}
            onBlur={() => setTouched(true)}
            error={touched ? message : null}
          />
          <p className={styles.muted}>
            Your email is your login: change it in <Link to={`${paths.accountDetails.path}?panel=settings`}>Settings</Link>.
          </p>
          <div className={styles.formActions}>
            <Button variant="secondary" onClick={() => navigate(paths.accountDetails.path)}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy}>
              Save
            </Button>
          </div>
        </form>
      </Card>
      <Dialog open={done} title={ALL_SET_TEXT} onClose={() => navigate(paths.accountDetails.path)} footer={<Button onClick={() => navigate(paths.accountDetails.path)}>Okay</Button>}>
        <p>Contact Information confirmed</p>
      </Dialog>
    </div>
  );
}

/** /account/personal/edit (2.21): the member's own details; Save goes to /account/alert/update. */
export function PersonalEditPage() {
  const navigate = useNavigate();
  const save = useUpdatePersonalInfo();
  const [error, setError] = useState<string | null>(null);
  return (
    <WithMember>
      {(member) => (
        <div className={`${styles.page} ${styles.narrow}`}>
          <BackLink to={paths.accountPersonal.path} />
          <h1>Edit personal information</h1>
          {error ? <Alert tone="error">{error}</Alert> : null}
          <Card>
            <MemberForm
              fields={['firstName', 'lastName', 'dob', 'gender', 'email', 'phone', 'zipCode', 'memberId', 'groupId', 'payerId', 'relation']}
              initial={formValues(member)}
              relationOptions={['Self', 'Spouse']}
              locked={['email']}
              note={<p className={styles.muted}>Your email is your login: change it in Settings.</p>}
              submitLabel="Save"
              busy={save.isPending}
              onCancel={() => navigate(paths.accountPersonal.path)}
              onSubmit={(values) => {
                setError(null);
                save.mutate(
                  personalInfoBody(member, { ...memberBody(values), email: member.email }),
                  { onSuccess: () => navigate(paths.accountAlert.getHref('update')), onError: (failure) => setError(errorText(failure, MESSAGES.somethingWrong)) },
                );
              }}
            />
          </Card>
        </div>
      )}
    </WithMember>
  );
}

/** /account/family-members/add (2.21, mobile): Next creates the member and goes to /account/alert/add. */
export function FamilyAddPage() {
  const navigate = useNavigate();
  const create = useCreateFamilyMember();
  const notice = useNotice(3000);
  return (
    <WithMember>
      {(member) => (
        <div className={`${styles.page} ${styles.narrow}`}>
          <BackLink to={paths.familyMembersMenu.path} label="Family Members" />
          <h1>Add a family member</h1>
          <Card>
            <MemberForm
              fields={['relation', 'firstName', 'lastName', 'dob', 'gender', 'email', 'phone', 'memberId']}
              initial={{}}
              relationOptions={['Spouse', 'Dependent']}
              submitLabel="Next"
              busy={create.isPending}
              onCancel={() => navigate(paths.familyMembersMenu.path)}
              onSubmit={(values) =>
                create.mutate(
                  { ...memberBody(values), planId: member.planId, payerId: member.payerId, groupId: member.groupId, companyName: member.companyName, useMyContact: false },
                  { onSuccess: () => navigate(paths.accountAlert.getHref('add')), onError: (failure) => notice.show(errorText(failure, MESSAGES.somethingWrong)) },
                )
              }
            />
          </Card>
          <Notice message={notice.message} />
        </div>
      )}
    </WithMember>
  );
}

/** /account/family-members/edit/{id} (2.21, mobile): edit, Switch Providers, and Remove with confirmation. */
export function FamilyEditPage() {
  const id = Number(useParams().id);
  const navigate = useNavigate();
  const save = useUpdateFamilyMember();
  const remove = useDeleteFamilyMember();
  const notice = useNotice(3000);
  const [confirmRemove, setConfirmRemove] = useState(false);
  return (
    <WithFamilyMember id={id}>
      {(person) => (
        <div className={`${styles.page} ${styles.narrow}`}>
          <BackLink to={paths.familyMember.getHref(id)} label={fullName(person)} />
          <h1>Edit {fullName(person)}</h1>
          <Card>
            <MemberForm
              fields={['firstName', 'lastName', 'dob', 'gender', 'email', 'phone', 'zipCode']}
              initial={formValues(person)}
              submitLabel="Save"
              busy={save.isPending}
              onCancel={() => navigate(paths.familyMember.getHref(id))}
              onSubmit={(values) => {
                const body = memberBody(values);
                save.mutate(
                  { id, body: familyUpdateBody(person, { firstName: body.firstName, lastName: body.lastName, email: body.email, gender: values.gender, zipCode: body.zipCode, phone: body.phone, dob: body.dob }) },
                  { onSuccess: () => navigate(paths.accountAlert.getHref('update')), onError: (failure) => notice.show(errorText(failure, MESSAGES.somethingWrong)) },
                );
              }}
              extraActions={
                <>
                  <Button
                    variant="secondary"
                    onClick={() => {
                      selectedDependent.set(id);
                      navigate(paths.marketplace.getHref({ selectProvider: 'true' }));
                    }}
                  >
                    Switch Providers
                  </Button>
                  <Button variant="danger" onClick={() => setConfirmRemove(true)}>
                    Remove
                  </Button>
                </>
              }
            />
          </Card>
          <Dialog
            open={confirmRemove}
            title={REMOVE_TEXTS.question}
            onClose={() => setConfirmRemove(false)}
            footer={
              <>
                <Button variant="secondary" onClick={() => setConfirmRemove(false)}>
                  No, go back
                </Button>
                <Button
                  variant="danger"
                  disabled={remove.isPending}
                  onClick={() =>
                    remove.mutate(id, {
                      onSuccess: (answer) => navigate(paths.familyMembersMenu.path, { state: { message: answerText(answer, `${fullName(person)} was removed.`) } }),
                      onError: (failure) => {
                        setConfirmRemove(false);
                        notice.show(errorText(failure, MESSAGES.somethingWrong));
                      },
                    })
                  }
                >
                  Remove
                </Button>
              </>
            }
          >
            <p>{REMOVE_TEXTS.warning}</p>
          </Dialog>
          <Notice message={notice.message} />
        </div>
      )}
    </WithFamilyMember>
  );
}
