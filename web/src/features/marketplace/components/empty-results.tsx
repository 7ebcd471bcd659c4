import { useId, useState, type FormEvent } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ApiError } from '@/lib/api-client';
import { storedEmployer } from '@/lib/storage';
import { useJoinWaitlist } from '../api/join-waitlist';
import { recordMetadata, searchMetadata } from '../api/record-metadata';
import type { LatLng, SearchFilters } from '../api/types';
import { useEmailField } from './use-email-field';
import { noEmailText, useWaitlistMember } from './use-waitlist-member';
import { WAITLIST_TEXTS } from './waitlist-dialog';
import styles from './empty-results.module.css';

/** The spec's empty-state texts. */
export const EMPTY_TEXTS = {
  clinics: 'There were no clinics found near the location you entered...',
  clinicians: 'No clinicians found near your location',
  general: 'No results found!',
} as const;

export type EmptyKind = keyof typeof EMPTY_TEXTS;

interface EmptyResultsProps {
  kind: EmptyKind;
  search: { location: LatLng | null; address: string; filters: SearchFilters };
  onClearFilters?: () => void;
}

export function EmptyResults({ kind, search, onClearFilters }: EmptyResultsProps) {
  return (
    <div className={styles.empty} data-testid="empty-results">
      <p className={styles.title}>{EMPTY_TEXTS[kind]}</p>
      {kind === 'clinics' ? <NotifyMeForm search={search} /> : null}
      {kind === 'general' && onClearFilters ? (
        <>
          <p className={styles.hint}>Try removing a filter or searching a wider area.</p>
          <Button variant="secondary" size="sm" onClick={onClearFilters}>
            Clear filters
          </Button>
        </>
      ) : null}
      {kind === 'clinicians' ? <p className={styles.hint}>Try the Clinics tab, or search a wider area.</p> : null}
    </div>
  );
}

/**
 * "Notify me" when a clinic opens near the searched address: signed in, the member's own email is
 * used (a member without one is told '{name} has no email'); signed out, a valid email and consent.
 */
export function NotifyMeForm({ search }: { search: EmptyResultsProps['search'] }) {
  const { email, setEmail, valid, error } = useEmailField();
  const [consent, setConsent] = useState(false);
  const [outcome, setOutcome] = useState<{ kind: 'added'; email: string | null } | { kind: 'failed'; message: string } | null>(null);
  const join = useJoinWaitlist();
  const waiting = useWaitlistMember();
  const inputId = useId();
  const errorId = useId();
  const ready = waiting.signedIn ? waiting.member !== null && !join.isPending : valid && consent && !join.isPending;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!ready) return;
    if (waiting.signedIn && !waiting.member?.email) {
      setOutcome({ kind: 'failed', message: noEmailText(waiting.member?.name ?? 'This member') });
      return;
    }
    const request = waiting.signedIn ? { email: waiting.member!.email!, member: waiting.member!.id, search } : { email, consent: true, search };
    join.mutate(request, {
      onSuccess: () => {
        setOutcome({ kind: 'added', email: request.email });
        recordMetadata(searchMetadata({ address: search.address, filters: search.filters, results: 0, employer: storedEmployer.get()?.companyName ?? null, waitlisted: '', email: request.email }));
      },
      onError: (failure) => {
        console.warn('waitlist call failed', failure);
        const message = failure instanceof ApiError && failure.status === 400 ? failure.message : "We couldn't save your request just now. Please try again in a little while.";
        setOutcome({ kind: 'failed', message });
      },
    });
  }

  if (outcome?.kind === 'added') {
    return (
      <Alert tone="success" title="You're on the list">
        We&apos;ll email {outcome.email ?? 'you'} when a clinic opens near you.
      </Alert>
    );
  }
  return (
    <form className={styles.form} onSubmit={submit} noValidate>
      {waiting.signedIn ? (
        <p className={styles.label}>Get an email when a clinic opens near you</p>
      ) : (
        <label htmlFor={inputId} className={styles.label}>
          Get an email when a clinic opens near you
        </label>
      )}
      <div className={styles.row}>
        {waiting.signedIn ? null : (
          <input
            id={inputId}
            type="email"
            inputMode="email"
            autoComplete="email"
            placeholder="you@example.com"
            className={styles.input}
            value={email}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
            onChange={(event) => setEmail(event.target.value)}
          />
        )}
        <Button type="submit" disabled={!ready}>
          Notify me
        </Button>
      </div>
      {error ? (
        <p id={errorId} className={styles.error}>
          {error}
        </p>
      ) : null}
      {waiting.signedIn ? null : (
        <label className={styles.check}>
          <input type="checkbox" checked={consent} onChange={(event) => setConsent(event.target.checked)} />
          {WAITLIST_TEXTS.consent}
        </label>
      )}
      {outcome?.kind === 'failed' ? <Alert tone="warning">{outcome.message}</Alert> : null}
    </form>
  );
}
