import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { ApiError } from '@/lib/api-client';
import { storedEmployer } from '@/lib/storage';
import { useJoinWaitlist } from '@/api/market/join-waitlist';
import { recordMetadata } from '@/api/market/record-metadata';
import type { LatLng, SearchFilters } from '@/api/market/types';
import { useEmailField } from './use-email-field';
import { noEmailText, useWaitlistMember } from './use-waitlist-member';
import { WAITLIST_TEXTS } from './waitlist-dialog';
import styles from './empty-results.module.css';
import { searchMetadata } from '../utils/search-metadata';

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

/** The notify-me dialogs' texts (the spec's "notified near clinic" and the general error). */
export const NOTIFY_TEXTS = {
  notified: "We'll let you know when a clinic opens near you",
  failed: WAITLIST_TEXTS.failed,
  tryAgain: 'Please try again in a little while.',
} as const;

type NotifyOutcome = { kind: 'added'; email: string | null } | { kind: 'failed'; message: string | null } | { kind: 'no-email'; name: string };

/**
 * "Notify me" when a clinic opens near the searched address: signed in, the member's own email is
 * used (a member without one gets the '{name} has no email' dialog); signed out, a valid email and
 * consent. The answer is a dialog: notified near a clinic, or 'Oops. Something went wrong'.
 */
export function NotifyMeForm({ search }: { search: EmptyResultsProps['search'] }) {
  const { email, setEmail, valid, error } = useEmailField();
  const [consent, setConsent] = useState(false);
  const [outcome, setOutcome] = useState<NotifyOutcome | null>(null);
  const [listed, setListed] = useState<string | null>(null);
  const [dialogOpen, setDialogOpen] = useState(false);
  const join = useJoinWaitlist();
  const waiting = useWaitlistMember();
  const inputId = useId();
  const errorId = useId();
  const ready = waiting.signedIn ? waiting.member !== null && !join.isPending : valid && consent && !join.isPending;

  function show(next: NotifyOutcome) {
    setOutcome(next);
    setDialogOpen(true);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!ready) return;
    if (waiting.signedIn && !waiting.member?.email) {
      show({ kind: 'no-email', name: waiting.member?.name ?? 'This member' });
      return;
    }
    const request = waiting.signedIn ? { email: waiting.member!.email!, member: waiting.member!.id, search } : { email, consent: true, search };
    join.mutate(request, {
      onSuccess: () => {
        show({ kind: 'added', email: request.email });
        recordMetadata(searchMetadata({ address: search.address, filters: search.filters, results: 0, employer: storedEmployer.get()?.companyName ?? null, waitlisted: '', email: request.email }));
      },
      onError: (failure) => {
        console.warn('waitlist call failed', failure);
        if (failure instanceof ApiError && failure.code === 'no_email') {
          show({ kind: 'no-email', name: waiting.member?.name ?? 'This member' });
          return;
        }
        // The server's own words for a refused request (a 4xx); nothing more for the rest.
        show({ kind: 'failed', message: failure instanceof ApiError && failure.status < 500 && failure.status !== 404 ? failure.message : null });
      },
    });
  }

  function closeDialog() {
    setDialogOpen(false);
    if (outcome?.kind === 'added') setListed(outcome.email);
  }

  const okay = <Button onClick={closeDialog}>Okay</Button>;
  const dialog =
    outcome === null ? null : outcome.kind === 'added' ? (
      <Dialog open={dialogOpen} title={NOTIFY_TEXTS.notified} onClose={closeDialog} footer={okay}>
        <p>
          We&apos;ll email {outcome.email ?? 'you'} when a clinic opens near {search.address || 'the address you searched'}.
        </p>
      </Dialog>
    ) : outcome.kind === 'no-email' ? (
      <Dialog open={dialogOpen} title={noEmailText(outcome.name)} onClose={closeDialog} footer={okay}>
        <p>Add an email address to this account to be notified.</p>
      </Dialog>
    ) : (
      <Dialog open={dialogOpen} title={NOTIFY_TEXTS.failed} onClose={closeDialog} footer={okay}>
        <p>{outcome.message ?? NOTIFY_TEXTS.tryAgain}</p>
      </Dialog>
    );

  if (listed !== null && !dialogOpen) {
    return <p className={styles.hint}>You&apos;re on the list: we&apos;ll email {listed || 'you'} when a clinic opens near you.</p>;
  }
  return (
    <>
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
      </form>
      {dialog}
    </>
  );
}
