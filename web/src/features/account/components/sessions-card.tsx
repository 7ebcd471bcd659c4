import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { errorText } from '@/lib/api-client';
import { signOut } from '@/lib/session';
import { MESSAGES } from '@/lib/validation';
import { useEndOtherSessions, useEndSession, useSessions, type SignedInSession } from '@/api/account/sessions';
import styles from './account.module.css';

export const SESSIONS_TEXTS = {
  title: "Where you're signed in",
  thisDevice: 'This device',
  signOutOthers: 'Sign out of all other devices',
} as const;

const WHEN = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit' });

/** "Active now" within two minutes, else the date and time of the last request. */
export function lastActiveText(lastActiveAt: string, now: number = Date.now()): string {
  const at = Date.parse(lastActiveAt);
  if (!Number.isFinite(at)) return '';
  return now - at < 2 * 60_000 ? 'Active now' : `Last active ${WHEN.format(at)}`;
}

/**
 * Settings' "Where you're signed in": each open session of the account (device, network, last
 * activity), this browser's marked. Sign out ends one on every server; "Sign out of all other
 * devices" ends all but this one; this browser's own Sign out signs out here.
 */
export function SessionsCard() {
  const sessions = useSessions();
  const endOne = useEndSession();
  const endOthers = useEndOtherSessions();
  const [error, setError] = useState<string | null>(null);
  const list = sessions.data?.sessions ?? [];
  const others = list.filter((session) => !session.current).length;
  const busy = endOne.isPending || endOthers.isPending;
  const failed = (failure: unknown) => setError(errorText(failure, MESSAGES.somethingWrong));

  return (
    <Card title={SESSIONS_TEXTS.title}>
      {sessions.isPending ? <Spinner label="Loading your sessions" /> : null}
      {sessions.isError ? <p className={styles.muted}>Your sessions could not be loaded: {errorText(sessions.error, MESSAGES.somethingWrong)}</p> : null}
      {sessions.data ? (
        <>
          <p className={styles.muted}>
            A session ends after {sessions.data.idleLimit} without activity, and {sessions.data.absoluteLimit} after signing in.
          </p>
          <ul className={styles.sessionList} aria-label="Signed-in sessions">
            {list.map((session) => (
              <SessionRow
                key={session.id}
                session={session}
                busy={busy}
                onEnd={() => {
                  setError(null);
                  endOne.mutate(session.id, { onError: failed });
                }}
              />
            ))}
          </ul>
          {others > 0 ? (
            <div className={styles.formActions}>
              <Button
                variant="secondary"
                disabled={busy}
                onClick={() => {
                  setError(null);
                  endOthers.mutate(undefined, { onError: failed });
                }}
              >
                {SESSIONS_TEXTS.signOutOthers}
              </Button>
            </div>
          ) : null}
        </>
      ) : null}
      {error ? (
        <p className={styles.danger} role="alert">
          {error}
        </p>
      ) : null}
    </Card>
  );
}

function SessionRow({ session, busy, onEnd }: { session: SignedInSession; busy: boolean; onEnd: () => void }) {
  const when = lastActiveText(session.lastActiveAt);
  return (
    <li className={styles.sessionRow} data-testid="session-row" data-current={session.current || undefined}>
      <div className={styles.sessionText}>
        <strong>
          {session.device}
          {session.current ? <span className={styles.sessionBadge}>{SESSIONS_TEXTS.thisDevice}</span> : null}
        </strong>
        <span>{session.network}</span>
        <span>{when}</span>
      </div>
      {session.current ? (
        <Button variant="secondary" size="sm" aria-label="Sign out of this device" onClick={signOut}>
          Sign out
        </Button>
      ) : (
        <Button variant="secondary" size="sm" aria-label={`Sign out ${session.device}, ${session.network}, ${when}`} disabled={busy} onClick={onEnd}>
          Sign out
        </Button>
      )}
    </li>
  );
}
