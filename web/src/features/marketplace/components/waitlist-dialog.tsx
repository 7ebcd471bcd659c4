import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import { ApiError } from '@/lib/api-client';
import { storedEmployer } from '@/lib/storage';
import { useJoinWaitlist, type WaitlistAnswer, type WaitlistSearch } from '@/api/market/join-waitlist';
import { recordMetadata } from '@/api/market/record-metadata';
import { useEmailField } from './use-email-field';
import { noEmailText, useWaitlistMember } from './use-waitlist-member';
import styles from './waitlist-dialog.module.css';
import { searchMetadata } from '../utils/search-metadata';

/** The clinic location whose waitlist is being joined. */
export interface WaitlistTarget {
  locationId: number;
  name: string;
}

interface WaitlistDialogProps {
  item: WaitlistTarget | null;
  onClose: () => void;
  search: WaitlistSearch;
}

export const WAITLIST_TEXTS = {
  title: 'Join the waitlist',
  added: "You've been added to the waitlist",
  consent: 'I agree to be contacted by the provider',
  failed: 'Oops. Something went wrong',
} as const;

type Phase = { kind: 'form' } | { kind: 'adding' } | { kind: 'added'; answer: WaitlistAnswer; email: string | null } | { kind: 'no-email'; name: string } | { kind: 'failed'; message: string };

/**
 * Joins a clinic's waitlist. Signed in, the member is added at once with their own email (a member
 * without one gets the '{name} has no email' dialog); signed out, an email (trimmed and lowercased
 * after a 500 ms pause) and the consent box enable Notify Me.
 */
export function WaitlistDialog({ item, onClose, search }: WaitlistDialogProps) {
  const { email, setEmail, valid, error } = useEmailField();
  const [consent, setConsent] = useState(false);
  const [phase, setPhase] = useState<Phase>({ kind: 'form' });
  const join = useJoinWaitlist();
  const waiting = useWaitlistMember();
  const inputId = useId();
  // The item the signed-in join already ran for: one call per opening.
  const joinedFor = useRef<WaitlistTarget | null>(null);

  function send(location: number, request: { email?: string; member?: number; consent?: boolean }) {
    setPhase({ kind: 'adding' });
    join.mutate(
      { ...request, location, search },
      {
        onSuccess: (answer) => {
          setPhase({ kind: 'added', answer, email: request.email ?? null });
          recordMetadata(
            searchMetadata({ address: search.address, filters: search.filters, results: null, employer: storedEmployer.get()?.companyName ?? null, waitlisted: item?.name ?? '', email: request.email ?? null }),
          );
        },
        onError: (failure) => {
          console.warn('waitlist call failed', failure);
          if (failure instanceof ApiError && failure.code === 'no_email') setPhase({ kind: 'no-email', name: waiting.member?.name ?? 'This member' });
          else setPhase({ kind: 'failed', message: failure instanceof ApiError && failure.status < 500 ? failure.message : WAITLIST_TEXTS.failed });
        },
      },
    );
  }

  useEffect(() => {
    if (!item) {
      joinedFor.current = null;
      return;
    }
    if (joinedFor.current === item) return;
    if (!waiting.signedIn) {
      joinedFor.current = item;
      setPhase({ kind: 'form' });
      setConsent(false);
      return;
    }
    if (waiting.loading) {
      setPhase({ kind: 'adding' });
      return;
    }
    if (!waiting.member) {
      setPhase({ kind: 'failed', message: WAITLIST_TEXTS.failed });
      return;
    }
    joinedFor.current = item;
    if (!waiting.member.email) {
      setPhase({ kind: 'no-email', name: waiting.member.name });
      return;
    }
    // Signed in with an email: added at once.
    send(item.locationId, { email: waiting.member.email, member: waiting.member.id });
    // `send` is recreated each render; the opening and the member decide.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [item, waiting.signedIn, waiting.loading, waiting.member?.email]);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!item || !valid || !consent || join.isPending) return;
    send(item.locationId, { email, consent: true });
  }

  const title =
    phase.kind === 'added'
      ? phase.answer.message || WAITLIST_TEXTS.added
      : phase.kind === 'no-email'
        ? noEmailText(phase.name)
        : phase.kind === 'failed' && waiting.signedIn
          ? WAITLIST_TEXTS.failed
          : WAITLIST_TEXTS.title;

  return (
    <Dialog open={item !== null} onClose={onClose} title={title}>
      {item ? (
        <div className={styles.form}>
          {phase.kind === 'adding' ? <Spinner label="Adding you to the waitlist" /> : null}
          {phase.kind === 'added' ? (
            <>
              <p>
                {phase.answer.alreadyListed ? 'You were already on the waitlist of ' : 'You are on the waitlist of '}
                <strong>{item.name}</strong>.{' '}
                {phase.email ? `We'll email ${phase.email} when a spot opens.` : "We'll email you when a spot opens."}
              </p>
              <Button onClick={onClose}>Done</Button>
            </>
          ) : null}
          {phase.kind === 'no-email' ? (
            <>
              <p>Add an email address to this account to join a waitlist.</p>
              <Button onClick={onClose}>Okay</Button>
            </>
          ) : null}
          {phase.kind === 'failed' && waiting.signedIn ? (
            <>
              {phase.message !== WAITLIST_TEXTS.failed ? <p>{phase.message}</p> : <p>Please try again in a little while.</p>}
              <Button onClick={onClose}>Okay</Button>
            </>
          ) : null}
          {phase.kind === 'form' || (phase.kind === 'failed' && !waiting.signedIn) ? (
            <form className={styles.form} onSubmit={submit} noValidate>
              <p>
                <strong>{item.name}</strong> is not accepting new patients at the moment. Leave your email and the clinic will let you know when a
                spot opens.
              </p>
              <label htmlFor={inputId} className={styles.label}>
                Email
              </label>
              <input
                id={inputId}
                type="email"
                autoComplete="email"
                className={styles.input}
                value={email}
                aria-invalid={error ? true : undefined}
                onChange={(event) => setEmail(event.target.value)}
              />
              {error ? <p className={styles.error}>{error}</p> : null}
              <label className={styles.check}>
                <input type="checkbox" checked={consent} onChange={(event) => setConsent(event.target.checked)} />
                {WAITLIST_TEXTS.consent}
              </label>
              {phase.kind === 'failed' ? <Alert tone="warning">{phase.message}</Alert> : null}
              <Button type="submit" disabled={!valid || !consent || join.isPending}>
                Notify Me
              </Button>
            </form>
          ) : null}
        </div>
      ) : null}
    </Dialog>
  );
}
