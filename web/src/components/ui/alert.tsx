import type { ReactNode } from 'react';
import styles from './alert.module.css';

/** An inline message box: info (navy), success, warning or error. */
export function Alert({ tone = 'info', title, children }: { tone?: 'info' | 'success' | 'warning' | 'error'; title?: string; children?: ReactNode }) {
  return (
    <div className={`${styles.alert} ${styles[tone]}`} role={tone === 'error' ? 'alert' : undefined}>
      {title ? <strong className={styles.title}>{title}</strong> : null}
      {children ? <div>{children}</div> : null}
    </div>
  );
}
