import { useId, type ReactNode } from 'react';
import styles from './card.module.css';

/** A titled white panel, the building block of Home, Account and Membership. */
export function Card({ title, action, children, className }: { title?: ReactNode; action?: ReactNode; children: ReactNode; className?: string }) {
  const id = useId();
  return (
    <section className={[styles.card, className ?? ''].filter(Boolean).join(' ')} aria-labelledby={title ? id : undefined}>
      {title || action ? (
        <header className={styles.header}>
          {title ? (
            <h2 id={id} className={styles.title}>
              {title}
            </h2>
          ) : null}
          {action}
        </header>
      ) : null}
      {children}
    </section>
  );
}

export interface Detail {
  label: string;
  value: ReactNode;
}

/** Label and value pairs; empty values show a dash so the layout stays put. */
export function DetailList({ items, columns = 1 }: { items: Detail[]; columns?: 1 | 2 }) {
  return (
    <dl className={`${styles.details} ${columns === 2 ? styles.twoColumns : ''}`}>
      {items.map((item) => (
        <div key={item.label} className={styles.detail}>
          <dt>{item.label}</dt>
          <dd>{item.value === null || item.value === undefined || item.value === '' ? '—' : item.value}</dd>
        </div>
      ))}
    </dl>
  );
}
