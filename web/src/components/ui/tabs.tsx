import { useId, useRef, type KeyboardEvent } from 'react';
import { formatCount } from '@/lib/format';
import styles from './tabs.module.css';

export interface TabItem<K extends string> {
  key: K;
  label: string;
  /** Shown beside the label; null keeps its room while it is not known yet. */
  count?: number | null;
}

interface TabsProps<K extends string> {
  tabs: TabItem<K>[];
  active: K;
  onChange: (key: K) => void;
  label: string;
  /** Prefix of the panel ids the tabs control (`${idPrefix}-${key}`). */
  idPrefix?: string;
}

/** An ARIA tab list with arrow-key navigation. The caller renders the active panel. */
export function Tabs<K extends string>({ tabs, active, onChange, label, idPrefix }: TabsProps<K>) {
  const generated = useId();
  const prefix = idPrefix ?? generated;
  const listRef = useRef<HTMLDivElement>(null);

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const index = tabs.findIndex((tab) => tab.key === active);
    let next: number;
    if (event.key === 'ArrowRight') next = (index + 1) % tabs.length;
    else if (event.key === 'ArrowLeft') next = (index - 1 + tabs.length) % tabs.length;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = tabs.length - 1;
    else return;
    event.preventDefault();
    onChange(tabs[next]!.key);
    listRef.current?.querySelectorAll<HTMLButtonElement>('[role="tab"]')[next]?.focus();
  }

  return (
    <div ref={listRef} role="tablist" aria-label={label} className={styles.list} onKeyDown={onKeyDown}>
      {tabs.map((tab) => {
        const selected = tab.key === active;
        return (
          <button
            key={tab.key}
            type="button"
            role="tab"
            id={`${prefix}-tab-${tab.key}`}
            aria-selected={selected}
            aria-controls={`${prefix}-panel-${tab.key}`}
            tabIndex={selected ? 0 : -1}
            className={`${styles.tab} ${selected ? styles.active : ''}`}
            onClick={() => onChange(tab.key)}
          >
            {tab.label}
            {tab.count === null ? (
              <span className={`${styles.count} ${styles.countPending}`} aria-hidden="true">
                00
              </span>
            ) : tab.count !== undefined ? (
              <span className={styles.count}>{formatCount(tab.count)}</span>
            ) : null}
          </button>
        );
      })}
    </div>
  );
}
