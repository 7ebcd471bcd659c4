import { useEffect, useId, useState, type FormEvent } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { useJoinWaitlist } from '../api/join-waitlist';
import type { LatLng, SearchFilters } from '../api/types';
import { useEmailField } from './use-email-field';
import styles from './waitlist-dialog.module.css';

/** The clinic location whose waitlist is being joined. */
export interface WaitlistTarget {
  locationId: number;
  name: string;
}

interface WaitlistDialogProps {
  item: WaitlistTarget | null;
  onClose: () => void;
  search: { location: LatLng | null; address: string; filters: SearchFilters };
}

/** Joins a clinic's waitlist: an email and consent to be contacted. */
export function WaitlistDialog({ item, onClose, search }: WaitlistDialogProps) {
  const { email, setEmail, valid, error } = useEmailField();
  const [consent, setConsent] = useState(false);
  const [outcome, setOutcome] = useState<'added' | 'failed' | null>(null);
  const join = useJoinWaitlist();
  const inputId = useId();

  useEffect(() => {
    if (item) {
      setOutcome(null);
      setConsent(false);
    }
  }, [item]);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!item || !valid || !consent) return;
    join.mutate(
      { email, location: item.locationId, search },
      {
        onSuccess: () => setOutcome('added'),
        onError: (failure) => {
          console.warn('waitlist call failed', failure);
          setOutcome('failed');
        },
      },
    );
  }

  return (
    <Dialog open={item !== null} onClose={onClose} title="Join the waitlist">
      {item ? (
        outcome === 'added' ? (
          <div className={styles.form}>
            <Alert tone="success" title="You've been added to the waitlist">
              {item.name} will contact you at {email} when a spot opens.
            </Alert>
            <Button onClick={onClose}>Done</Button>
          </div>
        ) : (
          <form className={styles.form} onSubmit={submit} noValidate>
            <p>
              <strong>{item.name}</strong> is not accepting new patients at the moment. Leave your email and the clinic will
              let you know when a spot opens.
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
              <input type="checkbox" checked={consent} onChange={(event) => setConsent(event.target.checked)} />I agree to be contacted by the provider
            </label>
            {outcome === 'failed' ? (
              <Alert tone="warning">We couldn't add you to the waitlist just now. Please try again in a little while.</Alert>
            ) : null}
            <Button type="submit" disabled={!valid || !consent || join.isPending}>
              Join the waitlist
            </Button>
          </form>
        )
      ) : null}
    </Dialog>
  );
}
