import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { queryKeys } from '@/api/query-keys';
import { useQueryClient } from '@tanstack/react-query';
import { MailIcon } from '@/components/icons/icons';
import { Alert } from '@/components/ui/alert';
import { AuthCard } from '@/components/ui/auth-card';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { EmailField } from '@/components/forms/person-fields';
import { useEmailInput } from '@/components/forms/use-email-input';
import { PasswordField } from '@/components/ui/field';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { errorText, isApiError } from '@/lib/api-client';
import { clearSignedOutMessage, setAccessToken, signedOutMessage } from '@/lib/session';
import { storedEmail } from '@/lib/storage';
import { MESSAGES, normaliseEmail } from '@/lib/validation';
import { useLogin } from '@/api/auth/login';
import { useLoginWithMagicLink } from '@/api/auth/login-magic-link';
import { useRequestMagicLink } from '@/api/auth/request-magic-link';
import type { LoginResponse } from '@/api/auth/types';
import { afterLoginPath } from '../utils/after-login';
import styles from './auth.module.css';

export const LOGIN_TEXTS = {
  magicLinkButton: 'Send me a one-time login link',
  magicLinkExpired: 'Your magic link has expired',
  invalid: 'Invalid email and / or password',
} as const;

/** State the guard or another page leaves for the login page. */
interface LoginLocationState {
  from?: string;
  message?: string;
}

/**
 * /login (2.6): email first, then the password with Log In, Forgot password, or a one-time login
 * link. `?magicLink=&email=` signs in through the emailed link.
 */
export function LoginPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const state = (location.state ?? {}) as LoginLocationState;
  const magicToken = params.get('magicLink');

  const emailInput = useEmailInput(() => normaliseEmail(params.get('email') ?? storedEmail.get() ?? ''), { invalidMessage: MESSAGES.emailInvalid });
  const email = emailInput.value;
  const [step, setStep] = useState<'email' | 'password'>('email');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [linkSentOpen, setLinkSentOpen] = useState(false);
  const [expiredOpen, setExpiredOpen] = useState(false);
  // Why the last session ended (signed out elsewhere, a password change, a limit). It is forgotten
  // when the person leaves this page inside the app, not when it first shows: the session's end
  // also sends the page to /login with a full load, and a login page the app rendered in between
  // must not take the reason from the page that load brings.
  const [endedMessage] = useState(signedOutMessage);
  useEffect(() => clearSignedOutMessage, []);

  const login = useLogin();
  const magicLogin = useLoginWithMagicLink();
  const requestLink = useRequestMagicLink();

  function signedIn(answer: LoginResponse) {
    setAccessToken(answer.accessToken);
    storedEmail.set(email || null);
    void queryClient.invalidateQueries({ queryKey: queryKeys.member.all });
    navigate(afterLoginPath(answer, state.from), { replace: true });
  }

  // A one-time link: log in once with its token.
  const magicStarted = useRef(false);
  useEffect(() => {
    if (!magicToken || magicStarted.current) return;
    magicStarted.current = true;
    magicLogin.mutate(
      { token: magicToken, email: params.get('email') ?? undefined },
      {
        onSuccess: signedIn,
        onError: (failure) => {
          if (isApiError(failure, 403) || isApiError(failure, 401)) setExpiredOpen(true);
          else setError(errorText(failure, MESSAGES.tryLater));
        },
      },
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps -- runs once for the link in the address; the handlers need no re-run
  }, [magicToken]);

  function next(event: FormEvent) {
    event.preventDefault();
    const normalised = emailInput.submit();
    if (normalised === null) return;
    setError(null);
    storedEmail.set(normalised);
    setStep('password');
  }

  function submitPassword(event: FormEvent) {
    event.preventDefault();
    if (!password) {
      setError(MESSAGES.passwordRequired);
      return;
    }
    setError(null);
    login.mutate(
      { email, password },
      {
        onSuccess: signedIn,
        onError: (failure) => setError(isApiError(failure) ? failure.message || LOGIN_TEXTS.invalid : MESSAGES.tryLater),
      },
    );
  }

  function sendLink() {
    setError(null);
    requestLink.mutate(
      { email },
      {
        onSuccess: () => {
          setExpiredOpen(false);
          setLinkSentOpen(true);
        },
        onError: (failure) => setError(errorText(failure, MESSAGES.tryLater)),
      },
    );
  }

  if (magicToken && magicLogin.isPending) {
    return (
      <AuthCard title="Login" subtitle="Signing you in with your one-time link">
        <Spinner label="Signing you in" />
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Login"
      subtitle={step === 'email' ? 'Enter the email you registered with.' : 'Welcome back.'}
      footer={
        <div className={styles.stack}>
          <p>
            New here? <Link to={paths.register.path}>Register</Link>
          </p>
          {/* Providers and TPAs sign in on this page: their account opens the provider portal. */}
          <p>
            Provider or TPA? Sign in here with the email your invitation was sent to, then go to the{' '}
            <Link to={paths.providerSolutions.path}>provider portal</Link>.
          </p>
        </div>
      }
    >
      {state.message ? <Alert tone="warning">{state.message}</Alert> : null}
      {endedMessage ? (
        <Alert tone="warning" title="You were signed out">
          {endedMessage}
        </Alert>
      ) : null}
      {error ? <Alert tone="error">{error}</Alert> : null}
      {step === 'email' ? (
        <form className={styles.form} onSubmit={next} noValidate>
          <EmailField autoComplete="email" {...emailInput.field} />
          <Button type="submit" block>
            Next
          </Button>
        </form>
      ) : (
        <form className={styles.form} onSubmit={submitPassword} noValidate>
          <div className={styles.emailChip}>
            <span>{email}</span>
            <button
              type="button"
              className={styles.linkButton}
              onClick={() => {
                setStep('email');
                setPassword('');
                setError(null);
              }}
            >
              Change
            </button>
          </div>
          <PasswordField label="Password" autoComplete="current-password" value={password} onChange={setPassword} autoFocus />
          <Button type="submit" block disabled={login.isPending}>
            {login.isPending ? 'Logging in…' : 'Log In'}
          </Button>
          <div className={styles.links}>
            <Link to={`${paths.forgotPassword.path}?email=${encodeURIComponent(email)}`}>Forgot password</Link>
          </div>
          <p className={styles.divider}>or</p>
          <Button variant="secondary" block icon={<MailIcon size={18} />} onClick={sendLink} disabled={requestLink.isPending}>
            {LOGIN_TEXTS.magicLinkButton}
          </Button>
        </form>
      )}

      <Dialog
        open={linkSentOpen}
        title="Check your Email"
        onClose={() => setLinkSentOpen(false)}
        footer={<Button onClick={() => setLinkSentOpen(false)}>OK</Button>}
      >
        <p>
          If there is an account associated to this e-mail, you will receive a one-time login link at <strong>{email}</strong>. The link
          works once and expires in 10 minutes.
        </p>
      </Dialog>

      <Dialog
        open={expiredOpen}
        title={LOGIN_TEXTS.magicLinkExpired}
        onClose={() => {
          setExpiredOpen(false);
          navigate(paths.login.path, { replace: true });
        }}
        footer={
          <>
            <Button
              variant="secondary"
              onClick={() => {
                setExpiredOpen(false);
                navigate(paths.login.path, { replace: true });
              }}
            >
              Log in with password
            </Button>
            <Button onClick={sendLink} disabled={!email || Boolean(emailInput.message) || requestLink.isPending}>
              Send me a new link
            </Button>
          </>
        }
      >
        <p>One-time login links work once and for 10 minutes. We can send a new one{email ? ` to ${email}` : ''}.</p>
      </Dialog>
    </AuthCard>
  );
}
