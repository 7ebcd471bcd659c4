import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { ChevronDownIcon } from '@/components/icons/icons';
import { Spinner } from '@/components/ui/spinner';
import styles from './searchable-select.module.css';

export interface SelectOption {
  id: string;
  label: string;
  /** A short note beside the label (an employer's status, for example). */
  hint?: string;
}

interface SearchableSelectProps {
  label: string;
  placeholder: string;
  searchPlaceholder: string;
  emptyText: string;
  options: SelectOption[];
  selectedLabel: string | null;
  search: string;
  onSearchChange: (search: string) => void;
  onSelect: (option: SelectOption) => void;
  loading?: boolean;
  /** Focuses the trigger when this becomes true (used by the employer-needed prompt). */
  autoFocus?: boolean;
  /** Shows the list in the page flow instead of floating (inside dialogs, which clip). */
  inline?: boolean;
  /** The choice is being worked out elsewhere: the trigger waits, disabled, saying so. */
  busy?: boolean;
}

/** A select whose options are searched as you type: a trigger button and a filtered listbox. */
export function SearchableSelect({
  label,
  placeholder,
  searchPlaceholder,
  emptyText,
  options,
  selectedLabel,
  search,
  onSearchChange,
  onSelect,
  loading = false,
  autoFocus = false,
  inline = false,
  busy = false,
}: SearchableSelectProps) {
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const rootRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const listId = useId();
  const labelId = useId();

  useEffect(() => {
    if (open) inputRef.current?.focus();
  }, [open]);

  useEffect(() => {
    if (autoFocus) triggerRef.current?.focus();
  }, [autoFocus]);

  useEffect(() => {
    if (!open) return;
    function onPointerDown(event: PointerEvent) {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    }
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open]);

  useEffect(() => setActive(0), [options]);

  function choose(option: SelectOption) {
    onSelect(option);
    setOpen(false);
    triggerRef.current?.focus();
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      setActive((index) => Math.min(index + 1, options.length - 1));
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((index) => Math.max(index - 1, 0));
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const option = options[active];
      if (option) choose(option);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      setOpen(false);
      triggerRef.current?.focus();
    }
  }

  return (
    <div className={styles.root} ref={rootRef}>
      <span id={labelId} className="visually-hidden">
        {label}
      </span>
      <button
        ref={triggerRef}
        type="button"
        className={`${styles.trigger} ${selectedLabel ? '' : styles.placeholder}`}
        aria-haspopup="listbox"
        aria-expanded={open}
        aria-labelledby={`${labelId} ${labelId}-value`}
        aria-busy={busy || undefined}
        disabled={busy}
        onClick={() => setOpen((value) => !value)}
      >
        <span id={`${labelId}-value`} className={styles.value}>
          {selectedLabel ?? placeholder}
        </span>
        <ChevronDownIcon size={18} />
      </button>
      {open ? (
        <div className={`${styles.popover} ${inline ? styles.inline : ''}`}>
          <input
            ref={inputRef}
            type="search"
            role="combobox"
            aria-expanded="true"
            aria-controls={listId}
            aria-autocomplete="list"
            aria-activedescendant={options[active] ? `${listId}-${options[active]!.id}` : undefined}
            aria-label={searchPlaceholder}
            className={styles.search}
            placeholder={searchPlaceholder}
            value={search}
            onChange={(event) => onSearchChange(event.target.value)}
            onKeyDown={onKeyDown}
          />
          <ul id={listId} role="listbox" aria-label={label} className={styles.list}>
            {loading && options.length === 0 ? (
              <li className={styles.empty}>
                <Spinner inline label="Loading employers" />
              </li>
            ) : null}
            {!loading && options.length === 0 ? <li className={styles.empty}>{emptyText}</li> : null}
            {options.map((option, index) => (
              <li
                key={option.id}
                id={`${listId}-${option.id}`}
                role="option"
                aria-selected={index === active}
                className={`${styles.option} ${index === active ? styles.active : ''}`}
                onPointerEnter={() => setActive(index)}
                onClick={() => choose(option)}
              >
                <span>{option.label}</span>
                {option.hint ? <span className={styles.hint}>{option.hint}</span> : null}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
