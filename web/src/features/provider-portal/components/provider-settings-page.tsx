import type { ReactNode } from 'react';
import styles from './provider-portal.module.css';

/**
 * /dpc-providers/settings: the provider account's settings, for now where it is signed in (the
 * app passes the accounts feature's sessions card, the one a member's Settings shows).
 */
export function ProviderSettingsPage({ children }: { children: ReactNode }) {
  return (
    <div className={styles.page}>
      <div className={styles.section}>
        <h1>Settings</h1>
        <p className={styles.muted}>The devices signed in to this provider account. Sign out any you do not recognise.</p>
      </div>
      {children}
    </div>
  );
}
