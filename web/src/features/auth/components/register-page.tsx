import { useEffect, useId, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { Alert } from '@/components/ui/alert';
import { AuthCard } from '@/components/ui/auth-card';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { EmailField } from '@/components/forms/person-fields';
import { CheckboxField } from '@/components/ui/field';
import { paths } from '@/config/paths';
import { errorText, isApiError } from '@/lib/api-client';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { setAccessToken } from '@/lib/session';
import { selectedProvider, storedEmail, storedEmployer, type SelectedProvider } from '@/lib/storage';
import { emailError, MESSAGES, normaliseEmail } from '@/lib/validation';
import { potentialEmployersQueryOptions } from '@/api/market/get-potential-employers';
import { useSignup } from '@/api/auth/signup';
import type { SignupResponse } from '@/api/auth/types';
import { useValidateEmail } from '@/api/auth/validate-email';
import { useLegalDocument } from '@/api/legal/get-legal-document';
import { queryKeys } from '@/api/query-keys';
import { matchEmployer, type ChosenEmployer } from '../utils/employer-match';
import { registerMissing } from '../utils/register-missing';
import { EmployerPicker } from './employer-picker';
import styles from './auth.module.css';

export const REGISTER_TEXTS = {
  notOffered: 'Oops, your employer does not offer this benefit yet',
  registered: 'This email is already registered. Please log in instead',
  consent: 'I agree to be contacted by the provider',
} as const;

type RegisterDialog = 'congratulations' | 'not-offered' | 'waitlist' | 'waitlisted' | 'error' | null;

/** Reads what the marketplace left (employer, chosen provider) before the page clears local storage. */
function useCarriedOver() {
  const [carried] = useState(() => ({ employer: storedEmployer.get(), provider: selectedProvider.get() }));
  useEffect(() => {
    // /register starts clean (spec 2.1); what the visitor chose comes along in memory.
    window.localStorage.clear();
  }, []);
  return carried;
}

/**
 * /register (2.8): choose the employer, give an email, agree to the terms, Continue. Employers
 * that do not offer the benefit lead to the Notify Me waiting list.
 */
export function RegisterPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const carried = useCarriedOver();
  const provider: SelectedProvider | null = carried.provider;

  const [employer, setEmployer] = useState<ChosenEmployer | null>(() => (carried.employer ? { ...carried.employer } : null));
  const [email, setEmail] = useState('');
  const [emailTouched, setEmailTouched] = useState(false);
  const [serverEmailError, setServerEmailError] = useState<{ email: string; message: string } | null>(null);
  const [terms, setTerms] = useState(false);
  const [termsChanged, setTermsChanged] = useState<string | null>(null);
  const termsOfUse = useLegalDocument('terms');
  const missingId = useId();
  const [dialog, setDialog] = useState<RegisterDialog>(null);
  const [dialogMessage, setDialogMessage] = useState('');
  const [signedUp, setSignedUp] = useState<SignupResponse | null>(null);

  const validate = useValidateEmail();
  const signup = useSignup();
  const busy = validate.isPending || signup.isPending;

  // ?company= preselects an employer by exact or prefix name.
  const company = params.get('company');
  useEffect(() => {
    if (!company) return;
    void queryClient
      .fetchQuery(potentialEmployersQueryOptions(company))
      .then((list) => setEmployer(matchEmployer(company, list)))
      .catch(() => setEmployer(matchEmployer(company, [])));
  }, [company, queryClient]);

  const emailMessage =
    emailError(email, { invalidMessage: MESSAGES.emailInvalidAlt }) ??
    (serverEmailError && serverEmailError.email === normaliseEmail(email) ? serverEmailError.message : null);
  const canContinue = employer !== null && emailMessage === null && terms && !busy;
  const missing = registerMissing({ employer: employer !== null, email: emailMessage === null, terms });

  function goToLogin() {
    storedEmail.set(normaliseEmail(email));
    navigate(`${paths.login.path}?email=${encodeURIComponent(normaliseEmail(email))}`, { state: { message: REGISTER_TEXTS.registered } });
  }

  function fail(message: string) {
    setDialogMessage(message);
    setDialog('error');
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setEmailTouched(true);
    const normalised = normaliseEmail(email);
    setEmail(normalised);
    if (!employer || emailError(normalised) || !terms || busy) return;
    if (employer.status !== 'active') {
      setDialog('not-offered');
      return;
    }
    try {
      const check = await validate.mutateAsync({ email: normalised });
      if (!check.valid) {
        if (check.reason && check.reason !== 'email') {
          setServerEmailError({ email: normalised, message: check.message ?? MESSAGES.somethingWrong });
          return;
        }
        goToLogin();
        return;
      }
    } catch (failure) {
      if (isApiError(failure, 400) || isApiError(failure, 403)) {
        setServerEmailError({ email: normalised, message: failure.message });
        return;
      }
      fail(errorText(failure, MESSAGES.somethingWrong));
      return;
    }
    try {
      const answer = await signup.mutateAsync({
        email: normalised,
        employerId: employer.id,
        companyName: employer.companyName,
        terms_and_conditions: true,
        termsVersion: termsOfUse.data?.version,
        providerId: provider?.providerId,
        locationId: provider?.locationId,
      });
      if (answer.accountExists) {
        goToLogin();
        return;
      }
      // Keep the marketplace choices for the rest of the onboarding.
      if (employer.id !== null) storedEmployer.set({ id: employer.id, companyName: employer.companyName, status: employer.status });
      if (provider) selectedProvider.set(provider);
      storedEmail.set(normalised);
      setSignedUp(answer);
      setDialog('congratulations');
    } catch (failure) {
      if (isApiError(failure, 409) && failure.code === 'terms_changed') {
        // The operator published new terms while the page was open: agree to those instead.
        setTerms(false);
        setTermsChanged(failure.message);
        void queryClient.invalidateQueries({ queryKey: queryKeys.legal.all });
        return;
      }
      if (isApiError(failure, 409)) {
        goToLogin();
        return;
      }
      fail(errorText(failure, MESSAGES.somethingWrong));
    }
  }

  function continueAfterSignup() {
    setDialog(null);
    const address = normaliseEmail(email);
    if (!signedUp?.accessToken) {
      navigate(`${paths.verify.path}?email=${encodeURIComponent(address)}`);
      return;
    }
    setAccessToken(signedUp.accessToken);
    const confirmFirst = provider !== null || signedUp.nextStep === 'confirmPlan';
    navigate(confirmFirst ? paths.confirmPlanInformation.path : paths.marketplace.path);
  }

  const stepsDone = [employer !== null, emailMessage === null && email.length > 0, terms, signedUp !== null];

  return (
    <AuthCard
      title="Create your account"
      subtitle="Your employer sponsors your membership. Let's check that it is offered to you."
      footer={
        <p>
          Already have an account? <Link to={paths.login.path}>Login</Link>
        </p>
      }
    >
      <ol className={styles.steps} aria-label="Registration steps">
        {['Select employer', 'Email', 'Terms', 'Continue'].map((label, index) => (
          <li key={label} className={stepsDone[index] ? styles.stepDone : undefined}>
            {label}
          </li>
        ))}
      </ol>
      {provider ? (
        <Alert tone="info" title="Your provider">
          {provider.name}
          {provider.locationName ? ` (${provider.locationName})` : ''}
        </Alert>
      ) : null}
      <form className={styles.form} onSubmit={(event) => void submit(event)} noValidate>
        <div className={styles.stack}>
          <span className={styles.fieldLabel} aria-hidden="true">
            Employer
          </span>
          <EmployerPicker employer={employer} onChange={setEmployer} />
          {employer && employer.status !== 'active' ? (
            <p className={styles.small}>{employer.companyName} does not offer the benefit yet; you can join the waiting list.</p>
          ) : null}
        </div>
        {/* The slot keeps the message's room, so the message appearing when the email is left
            (by a click on the terms box) does not move the box from under the pointer. */}
        <div className={styles.emailSlot}>
          <EmailField
            label="Company E-mail"
            autoComplete="email"
            value={email}
            onChange={setEmail}
            onBlur={() => setEmailTouched(true)}
            error={emailTouched || serverEmailError ? emailMessage : null}
          />
        </div>
        <CheckboxField
          checked={terms}
          onChange={(checked) => {
            setTerms(checked);
            if (checked) setTermsChanged(null);
          }}
          error={termsChanged}
          label={
            <>
              I agree to the{' '}
              <a href={paths.terms.path} target="_blank" rel="noreferrer">
                Terms of Use
              </a>{' '}
              and the{' '}
              <a href={paths.privacy.path} target="_blank" rel="noreferrer">
                Privacy Policy
              </a>
            </>
          }
        />
        <Button type="submit" block disabled={!canContinue} aria-describedby={missing && !busy ? missingId : undefined}>
          {busy ? 'Checking…' : 'Continue'}
        </Button>
        {missing && !busy ? (
          <p id={missingId} className={styles.small} data-testid="register-missing">
            {missing}
          </p>
        ) : null}
      </form>

      <Dialog
        open={dialog === 'congratulations'}
        title="Congratulations!"
        onClose={continueAfterSignup}
        footer={<Button onClick={continueAfterSignup}>Continue</Button>}
      >
        <div className={styles.dialogBody}>
          <p>
            <strong>{employer?.companyName}</strong> offers this benefit, and your account is created.
          </p>
          <p>
            We sent a link to <strong>{normaliseEmail(email)}</strong>. Open it to confirm your email and set your password.
          </p>
        </div>
      </Dialog>

      <Dialog
        open={dialog === 'not-offered'}
        title={REGISTER_TEXTS.notOffered}
        onClose={() => setDialog(null)}
        footer={
          <>
            <Button variant="secondary" onClick={() => setDialog(null)}>
              Close
            </Button>
            <Button onClick={() => setDialog('waitlist')}>Notify Me</Button>
          </>
        }
      >
        <p>
          {employer?.companyName ?? 'Your employer'} is not participating yet. Leave your email with Notify Me: a representative will contact
          the company, and we will email you as soon as the benefit is offered.
        </p>
      </Dialog>

      <WaitlistDialog
        open={dialog === 'waitlist'}
        initialEmail={normaliseEmail(email)}
        employer={employer}
        onClose={() => setDialog(null)}
        onDone={() => setDialog('waitlisted')}
        onError={fail}
      />

      <Dialog open={dialog === 'waitlisted'} title="You're on the list" onClose={() => setDialog(null)} footer={<Button onClick={() => setDialog(null)}>OK</Button>}>
        <p>We will email you when {employer?.companyName ?? 'your employer'} offers the benefit.</p>
      </Dialog>

      <Dialog open={dialog === 'error'} title="Oops. Something went wrong" onClose={() => setDialog(null)} footer={<Button onClick={() => setDialog(null)}>OK</Button>}>
        <p>{dialogMessage}</p>
      </Dialog>
    </AuthCard>
  );
}

/** The waitlist email capture: a valid email (checked after a 500 ms pause) and consent. */
function WaitlistDialog({
  open,
  initialEmail,
  employer,
  onClose,
  onDone,
  onError,
}: {
  open: boolean;
  initialEmail: string;
  employer: ChosenEmployer | null;
  onClose: () => void;
  onDone: () => void;
  onError: (message: string) => void;
}) {
  const [email, setEmail] = useState(initialEmail);
  const [consent, setConsent] = useState(false);
  const checked = useDebouncedValue(email, 500);
  const signup = useSignup();
  useEffect(() => {
    if (open) {
      setEmail(initialEmail);
      setConsent(false);
    }
  }, [open, initialEmail]);

  const settled = checked === email;
  const message = settled && checked ? emailError(checked, { invalidMessage: MESSAGES.emailInvalidAlt }) : null;
  const valid = settled && emailError(email) === null;
  const canNotify = employer !== null && valid && consent && !signup.isPending;

  function notify(event: FormEvent) {
    event.preventDefault();
    if (!canNotify || !employer) return;
    signup.mutate(
      { email: normaliseEmail(email), employerId: employer.id, companyName: employer.companyName, notify: true },
      {
        onSuccess: onDone,
        onError: (failure) => onError(errorText(failure, MESSAGES.somethingWrong)),
      },
    );
  }

  return (
    <Dialog open={open} title="Notify Me" onClose={onClose}>
      <form className={styles.form} onSubmit={notify} noValidate>
        <p>We will let you know when {employer?.companyName ?? 'your employer'} offers the benefit.</p>
        <EmailField autoComplete="email" value={email} onChange={setEmail} error={message} />
        <CheckboxField label={REGISTER_TEXTS.consent} checked={consent} onChange={setConsent} />
        <Button type="submit" disabled={!canNotify}>
          Notify Me
        </Button>
      </form>
    </Dialog>
  );
}
