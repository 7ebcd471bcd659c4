import { useId, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { isApiError } from '@/lib/api-client';
import { toggle } from '@/lib/toggle';
import { useUpdateLocationListing } from '@/api/listings/update-location-listing';
import type { ListingCodes, LocationListing } from '@/api/listings/types';
import { HoursEditor } from './hours-editor';
import { LanguageChecklist } from './language-checklist';
import { locationDraft, locationPatch, PEDIATRIC_SERVICE, type LocationDraft } from '../utils/listing-draft';
import styles from './listings.module.css';

interface LocationEditorProps {
  location: LocationListing;
  codes: ListingCodes;
  onSaved: (message: string) => void;
  onCancel: () => void;
}

/** Every fact of one location's listing; Save sends only what changed. */
export function LocationEditor({ location, codes, onSaved, onCancel }: LocationEditorProps) {
  const [draft, setDraft] = useState<LocationDraft>(() => locationDraft(location));
  const update = useUpdateLocationListing();
  const idPrefix = `location-${location.id}`;
  const zoneId = useId();
  const set = (patch: Partial<LocationDraft>) => setDraft((current) => ({ ...current, ...patch }));
  const patch = locationPatch(location, draft);
  const changed = Object.keys(patch).length > 0;
  const error = update.error;
  const errorField = isApiError(error) ? ((error.body as { field?: string } | null)?.field ?? null) : null;
  const pediatric = draft.services.includes(PEDIATRIC_SERVICE);

  function save() {
    if (!changed) {
      onCancel();
      return;
    }
    update.mutate(
      { id: location.id, patch },
      {
        onSuccess: () => onSaved(`Saved ${location.name} (${location.locationName}): members see it within seconds.`),
      },
    );
  }

  return (
    <form
      className={styles.editor}
      aria-label={`Edit ${location.name} (${location.locationName})`}
      onSubmit={(event) => {
        event.preventDefault();
        save();
      }}
    >
      {error ? (
        <Alert tone="error" title="Not saved">
          {error.message}
          {errorField ? <span className={styles.muted}> (field: {errorField})</span> : null}
        </Alert>
      ) : null}
      <div className={styles.columns}>
        <fieldset className={styles.fieldset}>
          <legend className={styles.legend}>New patients</legend>
          <label className={styles.check}>
            <input type="checkbox" checked={draft.acceptingNewPatients} onChange={(event) => set({ acceptingNewPatients: event.target.checked })} />
            Accepting new patients
          </label>
          <TextField
            label="Panel capacity (members)"
            inputMode="numeric"
            value={draft.panelCapacity}
            onChange={(value) => set({ panelCapacity: value })}
            hint={`${location.panel.members} pending and active members now. Leave empty for no limit; at capacity the clinic stops accepting new patients by itself.`}
            error={errorField === 'panelCapacity' ? error?.message : null}
          />
        </fieldset>
        <fieldset className={styles.fieldset}>
          <legend className={styles.legend}>Contact</legend>
          <TextField label="Phone" type="tel" value={draft.phone} onChange={(value) => set({ phone: value })} error={errorField === 'phone' ? error?.message : null} />
          <TextField label="Website" value={draft.website} onChange={(value) => set({ website: value })} error={errorField === 'website' ? error?.message : null} />
          <div className={styles.field}>
            <label htmlFor={zoneId} className={styles.legend}>
              Time zone
            </label>
            <select id={zoneId} className={styles.select} value={draft.timeZone} onChange={(event) => set({ timeZone: event.target.value })}>
              {codes.timeZones.map((zone) => (
                <option key={zone.name} value={zone.name}>
                  {zone.label}
                </option>
              ))}
            </select>
          </div>
        </fieldset>
      </div>

      <HoursEditor hours={draft.hours} onChange={(hours) => set({ hours })} idPrefix={idPrefix} />

      <div className={styles.columns}>
        <LanguageChecklist languages={codes.languages} selected={draft.languages} onChange={(languages) => set({ languages })} />
        <fieldset className={styles.fieldset}>
          <legend className={styles.legend}>Accessibility</legend>
          {codes.accessibility.map((code) => (
            <label key={code.code} className={styles.check}>
              <input type="checkbox" checked={draft.accessibility.includes(code.code)} onChange={() => set({ accessibility: toggle(draft.accessibility, code.code) })} />
              {code.label}
            </label>
          ))}
        </fieldset>
      </div>

      <div className={styles.columns}>
        <fieldset className={styles.fieldset}>
          <legend className={styles.legend}>Services</legend>
          {codes.services.map((service) => (
            <label key={service.code} className={styles.check}>
              <input type="checkbox" checked={draft.services.includes(service.code)} onChange={() => set({ services: toggle(draft.services, service.code) })} />
              {service.label}
            </label>
          ))}
          {pediatric ? (
            <div className={styles.ages}>
              <TextField label="Pediatric ages from" inputMode="numeric" value={draft.pediatricMin} onChange={(value) => set({ pediatricMin: value })} />
              <TextField label="to (years)" inputMode="numeric" value={draft.pediatricMax} onChange={(value) => set({ pediatricMax: value })} />
            </div>
          ) : null}
        </fieldset>
        <fieldset className={styles.fieldset}>
          <legend className={styles.legend}>Telehealth</legend>
          <label className={styles.check}>
            <input type="checkbox" checked={draft.telehealth} onChange={(event) => set({ telehealth: event.target.checked })} />
            Offers telehealth visits (video or phone)
          </label>
        </fieldset>
      </div>

      <div className={styles.formActions}>
        <Button variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" disabled={update.isPending}>
          {update.isPending ? 'Saving...' : changed ? 'Save changes' : 'Close'}
        </Button>
      </div>
    </form>
  );
}
