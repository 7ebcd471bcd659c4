import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { toggle } from '@/lib/toggle';
import { useUpdateClinicianListing } from '@/api/listings/update-clinician-listing';
import type { ClinicianListing, ListingCodes, LocationListing } from '@/api/listings/types';
import { clinicianDraft, clinicianPatch, type ClinicianDraft } from '../utils/listing-draft';
import { LanguageChecklist } from './language-checklist';
import styles from './listings.module.css';

interface ClinicianEditorProps {
  clinician: ClinicianListing;
  locations: LocationListing[];
  codes: ListingCodes;
  onSaved: (message: string) => void;
  onCancel: () => void;
}

/** A clinician's listing: new patients, languages, telehealth and the locations they work at. */
export function ClinicianEditor({ clinician, locations, codes, onSaved, onCancel }: ClinicianEditorProps) {
  const [draft, setDraft] = useState<ClinicianDraft>(() => clinicianDraft(clinician));
  const update = useUpdateClinicianListing();
  const set = (patch: Partial<ClinicianDraft>) => setDraft((current) => ({ ...current, ...patch }));
  const patch = clinicianPatch(clinician, draft);
  const changed = Object.keys(patch).length > 0;

  return (
    <form
      className={styles.editor}
      aria-label={`Edit ${clinician.name}`}
      onSubmit={(event) => {
        event.preventDefault();
        if (!changed) {
          onCancel();
          return;
        }
        update.mutate({ id: clinician.id, patch }, { onSuccess: () => onSaved(`Saved ${clinician.name}: members see it within seconds.`) });
      }}
    >
      {update.error ? (
        <Alert tone="error" title="Not saved">
          {update.error.message}
        </Alert>
      ) : null}
      <div className={styles.columns}>
        <fieldset className={styles.fieldset}>
          <legend className={styles.legend}>New patients and telehealth</legend>
          <label className={styles.check}>
            <input type="checkbox" checked={draft.acceptingNewPatients} onChange={(event) => set({ acceptingNewPatients: event.target.checked })} />
            Accepting new patients
          </label>
          <label className={styles.check}>
            <input type="checkbox" checked={draft.telehealth} onChange={(event) => set({ telehealth: event.target.checked })} />
            Sees patients by video or phone
          </label>
        </fieldset>
        <fieldset className={styles.fieldset}>
          <legend className={styles.legend}>Works at</legend>
          {locations.map((location) => (
            <label key={location.id} className={styles.check}>
              <input
                type="checkbox"
                checked={draft.locationIds.includes(location.id)}
                onChange={() => set({ locationIds: toggle(draft.locationIds, location.id) })}
              />
              {location.locationName} ({location.city}, {location.state})
            </label>
          ))}
          {draft.locationIds.length === 0 ? <p className={styles.warning}>Choose at least one location.</p> : null}
        </fieldset>
      </div>
      <LanguageChecklist languages={codes.languages} selected={draft.languages} onChange={(languages) => set({ languages })} />
      <div className={styles.formActions}>
        <Button variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" disabled={update.isPending || draft.locationIds.length === 0}>
          {update.isPending ? 'Saving...' : changed ? 'Save changes' : 'Close'}
        </Button>
      </div>
    </form>
  );
}
