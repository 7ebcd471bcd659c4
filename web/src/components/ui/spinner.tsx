import styles from './spinner.module.css';

/** A loading indicator with a text alternative for screen readers. */
export function Spinner({ label = 'Loading', inline = false }: { label?: string; inline?: boolean }) {
  return (
    <span className={inline ? styles.inline : styles.block} role="status">
      <span className={styles.ring} aria-hidden="true" />
      <span className="visually-hidden">{label}</span>
    </span>
  );
}
