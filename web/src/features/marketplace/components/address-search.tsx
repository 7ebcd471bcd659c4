import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { CrosshairIcon, PinIcon, SearchIcon, ClinicIcon } from '@/components/icons/icons';
import { Button } from '@/components/ui/button';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { useAutocompleteLocations } from '@/api/market/autocomplete-locations';
import type { LatLng, Prediction } from '@/api/market/types';
import styles from './address-search.module.css';

interface AddressSearchProps {
  /** The address shown when the box first appears (the current search). */
  initialValue?: string;
  /** A ZIP or city suggestion with coordinates was chosen. */
  onPlace: (place: { location: LatLng; label: string }) => void;
  /** Free text was submitted; the caller geocodes it. */
  onText: (text: string) => void;
  /** A clinic suggestion was chosen. */
  onClinic?: (prediction: Prediction) => void;
  /** The user asked to search from the device's position. */
  onMyLocation?: () => void;
  label?: string;
  placeholder?: string;
  busy?: boolean;
  error?: string | null;
}

/** The server geocodes 1 to 300 characters. */
export const ADDRESS_MAX_CHARS = 300;
export const ADDRESS_TEXTS = {
  empty: 'Enter an address, city or ZIP code to search.',
  tooLong: `Addresses are ${ADDRESS_MAX_CHARS} characters at most.`,
} as const;

/** The address box with autocomplete (ZIP codes, cities and clinics). */
export function AddressSearch({
  initialValue = '',
  onPlace,
  onText,
  onClinic,
  onMyLocation,
  label = 'Address, city or ZIP code',
  placeholder = 'Enter an address, city or ZIP code',
  busy = false,
  error = null,
}: AddressSearchProps) {
  const [value, setValue] = useState(initialValue);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  // A problem with the text itself (empty, too long), shown where the geocoding error shows.
  const [problem, setProblem] = useState<string | null>(null);
  const rootRef = useRef<HTMLFormElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const listId = useId();
  const inputId = useId();
  const errorId = useId();
  const debounced = useDebouncedValue(value, 200);
  const suggestions = useAutocompleteLocations(open ? debounced : '');
  // Only suggestions for the text as it is now: the previous text's answer (kept while the next
  // one loads) must not be chosen by a click or Enter meant for what was typed since.
  const current = value.trim() === debounced.trim() && !suggestions.isPlaceholderData;
  const predictions = open && current && debounced.trim().length >= 2 ? (suggestions.data?.predictions ?? []) : [];

  // The current search's address shows in the box, except while the member is typing there: a
  // search restored or linked a moment after the page opened must not wipe what they typed. A
  // search from the locate button (focus on the button, not the box) does replace the text.
  useEffect(() => {
    if (document.activeElement !== inputRef.current) setValue(initialValue);
  }, [initialValue]);
  useEffect(() => setActive(-1), [debounced]);

  useEffect(() => {
    function onPointerDown(event: PointerEvent) {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    }
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, []);

  function choose(prediction: Prediction) {
    setOpen(false);
    setProblem(null);
    if (prediction.kind === 'clinic' && onClinic) {
      onClinic(prediction);
      return;
    }
    setValue(prediction.description);
    if (prediction.location) onPlace({ location: prediction.location, label: prediction.description });
    else onText(prediction.description);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const chosen = active >= 0 ? predictions[active] : undefined;
    if (chosen) {
      choose(chosen);
      return;
    }
    const text = value.trim();
    if (!text) {
      setProblem(ADDRESS_TEXTS.empty);
      inputRef.current?.focus();
      return;
    }
    setOpen(false);
    onText(text);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'ArrowDown' && predictions.length > 0) {
      event.preventDefault();
      setOpen(true);
      setActive((index) => Math.min(index + 1, predictions.length - 1));
    } else if (event.key === 'ArrowUp' && predictions.length > 0) {
      event.preventDefault();
      setActive((index) => Math.max(index - 1, -1));
    } else if (event.key === 'Escape') {
      setOpen(false);
    }
  }

  const expanded = open && predictions.length > 0;
  const shownError = problem ?? error;
  return (
    <form ref={rootRef} className={styles.form} role="search" onSubmit={submit}>
      <label htmlFor={inputId} className="visually-hidden">
        {label}
      </label>
      <div className={styles.field}>
        <SearchIcon size={18} />
        <input
          ref={inputRef}
          id={inputId}
          type="text"
          role="combobox"
          autoComplete="off"
          aria-expanded={expanded}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={expanded && active >= 0 ? `${listId}-${active}` : undefined}
          aria-invalid={shownError ? true : undefined}
          aria-describedby={shownError ? errorId : undefined}
          className={styles.input}
          placeholder={placeholder}
          value={value}
          maxLength={ADDRESS_MAX_CHARS}
          onChange={(event) => {
            setValue(event.target.value);
            setProblem(event.target.value.length >= ADDRESS_MAX_CHARS ? ADDRESS_TEXTS.tooLong : null);
            setOpen(true);
          }}
          onFocus={() => setOpen(true)}
          onKeyDown={onKeyDown}
        />
        {onMyLocation ? (
          <button
            type="button"
            className={styles.locate}
            onClick={() => {
              setProblem(null);
              onMyLocation();
            }}
            aria-label="Use my current location"
            title="Use my current location"
          >
            <CrosshairIcon size={18} />
          </button>
        ) : null}
        <ul id={listId} role="listbox" aria-label="Suggestions" className={styles.list} hidden={!expanded}>
          {predictions.map((prediction, index) => (
            <li
              key={`${prediction.kind}-${prediction.description}-${prediction.locationId ?? ''}`}
              id={`${listId}-${index}`}
              role="option"
              aria-selected={index === active}
              className={`${styles.option} ${index === active ? styles.active : ''}`}
              onPointerEnter={() => setActive(index)}
              onClick={() => choose(prediction)}
            >
              {prediction.kind === 'clinic' ? <ClinicIcon size={16} /> : <PinIcon size={16} />}
              <span>{prediction.description}</span>
              <span className={styles.kind}>{prediction.kind === 'clinic' ? 'Clinic' : prediction.kind === 'zip' ? 'ZIP' : 'City'}</span>
            </li>
          ))}
        </ul>
      </div>
      <Button type="submit" disabled={busy} className={styles.submit}>
        Search
      </Button>
      {shownError ? (
        <p id={errorId} className={styles.error} role="alert">
          {shownError}
        </p>
      ) : null}
    </form>
  );
}
