import { useState } from 'react';
import { downloadRoster } from '@/api/clinic-panel/download-roster';
import { Button } from '@/components/ui/button';
import { errorText } from '@/lib/api-client';
import { currentMonth } from '../utils/panel';
import styles from './clinic-panel.module.css';

/** The monthly roster (CSV): a month, at most the current one, and a download button. */
export function RosterDownload() {
  const latest = currentMonth();
  const [month, setMonth] = useState(latest);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function download() {
    setBusy(true);
    setError(null);
    try {
      await downloadRoster(month);
    } catch (failure) {
      setError(errorText(failure, 'The roster could not be downloaded. Please try again.'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className={styles.roster}>
      <label className={styles.rosterLabel}>
        <span>Roster month</span>
        <input className={styles.control} type="month" value={month} max={latest} onChange={(event) => setMonth(event.target.value)} />
      </label>
      <Button variant="secondary" onClick={download} disabled={busy || !month}>
        {busy ? 'Preparing…' : 'Download roster (CSV)'}
      </Button>
      {error ? (
        <p className={styles.error} role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
