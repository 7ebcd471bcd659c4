import { useId, useState, type FormEvent } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { useJoinWaitlist } from '../api/join-waitlist';
import type { LatLng, SearchFilters } from '../api/types';
import { useEmailField } from './use-email-field';
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

/** "Notify me" when a clinic opens near the searched address. */
export function NotifyMeForm({ search }: { search: EmptyResultsProps['search'] }) {
  const { email, setEmail, valid, error } = useEmailField();
  const [outcome, setOutcome] = useState<'added' | 'failed' | null>(null);
  const join = useJoinWaitlist();
  const inputId = useId();
  const errorId = useId();

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!valid) return;
    join.mutate(
      { email, search },
      {
        onSuccess: () => setOutcome('added'),
        onError: (failure) => {
          console.warn('waitlist call failed', failure);
          setOutcome('failed');
        },
      },
    );
  }

  if (outcome === 'added') {
    return <Alert tone="success" title="You're on the list">We'll email {email} when a clinic opens near you.</Alert>;
  }
  return (
    <form className={styles.form} onSubmit={submit} noValidate>
      <label htmlFor={inputId} className={styles.label}>
        Get an email when a clinic opens near you
      </label>
      <div className={styles.row}>
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
        <Button type="submit" disabled={!valid || join.isPending}>
          Notify me
        </Button>
      </div>
      {error ? (
        <p id={errorId} className={styles.error}>
          {error}
        </p>
      ) : null}
      {outcome === 'failed' ? (
        <Alert tone="warning">We couldn't save your request just now. Please try again in a little while.</Alert>
      ) : null}
    </form>
  );
}
