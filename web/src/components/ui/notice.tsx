import { useCallback, useEffect, useRef, useState } from 'react';
import styles from './notice.module.css';

/** How long a notice stays up (the share notice is specified at 3 seconds). */
export const NOTICE_MS = 3000;

/** A transient message announced politely to screen readers. */
export function useNotice(durationMs = NOTICE_MS) {
  const [message, setMessage] = useState<string | null>(null);
  const timer = useRef<number | undefined>(undefined);
  const show = useCallback(
    (text: string) => {
      window.clearTimeout(timer.current);
      setMessage(text);
      timer.current = window.setTimeout(() => setMessage(null), durationMs);
    },
    [durationMs],
  );
  useEffect(() => () => window.clearTimeout(timer.current), []);
  return { message, show };
}

export function Notice({ message }: { message: string | null }) {
  return (
    <div className={styles.region} aria-live="polite" role="status">
      {message ? <div className={styles.notice}>{message}</div> : null}
    </div>
  );
}
