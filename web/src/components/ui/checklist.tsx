import { useId, useRef, useState } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import styles from './checklist.module.css';

/** Filter lists show this many items until "See more". */
export const INITIAL_VISIBLE_ITEMS = 3;
const ROW_HEIGHT = 40;
const VIRTUAL_ABOVE = 12;

interface ChecklistProps {
  legend: string;
  options: string[];
  selected: string[];
  onToggle: (option: string) => void;
  /** Shows each option's label; defaults to the option itself. */
  labelFor?: (option: string) => string;
  /** A search box above the list (the group and organisation list has one). */
  search?: { value: string; onChange: (value: string) => void; placeholder: string };
  emptyText?: string;
}

/**
 * A fieldset of checkboxes showing 3 items with see more / see less; the expanded list is
 * virtualised, since the organisation list can hold hundreds of names.
 */
export function Checklist({ legend, options, selected, onToggle, labelFor = (o) => o, search, emptyText = 'Nothing to choose from' }: ChecklistProps) {
  const [expanded, setExpanded] = useState(false);
  const listId = useId();
  // Selected values stay visible even when they are not among the first three.
  const firstOptions = options.slice(0, INITIAL_VISIBLE_ITEMS);
  const extraSelected = selected.filter((value) => !firstOptions.includes(value));
  const collapsedOptions = [...firstOptions, ...extraSelected];
  const shown = expanded ? options : collapsedOptions;
  const canExpand = options.length > INITIAL_VISIBLE_ITEMS;

  return (
    <fieldset className={styles.fieldset}>
      <legend className={styles.legend}>{legend}</legend>
      {search ? (
        <input
          type="search"
          className={styles.search}
          value={search.value}
          placeholder={search.placeholder}
          aria-label={search.placeholder}
          onChange={(event) => search.onChange(event.target.value)}
        />
      ) : null}
      {options.length === 0 ? <p className={styles.empty}>{emptyText}</p> : null}
      <div id={listId}>
        {expanded && shown.length > VIRTUAL_ABOVE ? (
          <VirtualOptions options={shown} selected={selected} onToggle={onToggle} labelFor={labelFor} />
        ) : (
          <ul className={styles.list}>
            {shown.map((option) => (
              <li key={option}>
                <OptionRow option={option} checked={selected.includes(option)} onToggle={onToggle} label={labelFor(option)} />
              </li>
            ))}
          </ul>
        )}
      </div>
      {canExpand ? (
        <button type="button" className={styles.more} aria-expanded={expanded} aria-controls={listId} onClick={() => setExpanded((v) => !v)}>
          {expanded ? 'See less' : 'See more'}
        </button>
      ) : null}
    </fieldset>
  );
}

function OptionRow({ option, checked, onToggle, label }: { option: string; checked: boolean; onToggle: (o: string) => void; label: string }) {
  return (
    <label className={styles.row}>
      <input type="checkbox" checked={checked} onChange={() => onToggle(option)} />
      <span>{label}</span>
    </label>
  );
}

function VirtualOptions({ options, selected, onToggle, labelFor }: { options: string[]; selected: string[]; onToggle: (o: string) => void; labelFor: (o: string) => string }) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: options.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 6,
    initialRect: { width: 320, height: 6 * ROW_HEIGHT },
  });
  return (
    <div ref={scrollRef} className={styles.scroller} data-testid="virtual-checklist">
      <ul className={styles.list} style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((row) => {
          const option = options[row.index]!;
          return (
            <li key={option} className={styles.virtualRow} style={{ transform: `translateY(${row.start}px)`, height: ROW_HEIGHT }}>
              <OptionRow option={option} checked={selected.includes(option)} onToggle={onToggle} label={labelFor(option)} />
            </li>
          );
        })}
      </ul>
    </div>
  );
}
