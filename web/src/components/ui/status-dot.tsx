import styles from './status-dot.module.css';

export type StatusTone = 'pending' | 'active' | 'inactive' | 'none';

/** A status with its coloured dot: pending amber, active green, inactive red, anything else grey. */
export function StatusDot({ label, tone }: { label: string; tone: StatusTone }) {
  return (
    <span className={`${styles.status} ${styles[tone]}`} data-tone={tone}>
      <span className={styles.dot} aria-hidden="true" />
      {label}
    </span>
  );
}
