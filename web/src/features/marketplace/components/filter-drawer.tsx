import { useEffect, useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Checklist } from '@/components/ui/checklist';
import { Dialog } from '@/components/ui/dialog';
import { useSignedIn } from '@/lib/session';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { useListingCodes } from '@/api/listings/get-listing-codes';
import { useSpokenLanguages } from '@/api/listings/get-spoken-languages';
import { useCredentials } from '@/api/market/get-credentials';
import { useOrganizationNames } from '@/api/market/get-organization-names';
import { useSpecialities } from '@/api/market/get-specialities';
import type { SearchFilters } from '@/api/market/types';
import { toggle as toggleValue } from '@/lib/toggle';
import { DEFAULT_FILTERS, GENDER_LABELS, MAX_DISTANCE_POSITION, NAME_FILTER_MAX_CHARS, NAME_FILTER_MAX_WORDS, nameFilterProblem, sliderLabel } from '../utils/filters';
import { FilterChips } from './filter-chips';
import styles from './filter-drawer.module.css';

interface FilterDrawerProps {
  open: boolean;
  onClose: () => void;
  filters: SearchFilters;
  onApply: (filters: SearchFilters) => void;
  /** The custom company alias, which restricts the group and organisation list. */
  alias: string | null;
}

const GENDERS: ('F' | 'M')[] = ['F', 'M'];

/** 'Filter solutions': edits a draft that View results applies. */
export function FilterDrawer({ open, onClose, filters, onApply, alias }: FilterDrawerProps) {
  const [draft, setDraft] = useState<SearchFilters>(filters);
  const [organizationSearch, setOrganizationSearch] = useState('');
  const [languageSearch, setLanguageSearch] = useState('');
  const debouncedOrganizationSearch = useDebouncedValue(organizationSearch, 250);
  const nameId = useId();
  const distanceId = useId();
  const signedIn = useSignedIn();

  // Each opening starts from the filters in force.
  useEffect(() => {
    if (open) setDraft(filters);
  }, [open, filters]);

  const credentials = useCredentials(alias, open);
  const specialities = useSpecialities(alias, open);
  const organizations = useOrganizationNames(alias, debouncedOrganizationSearch, open);
  const languages = useSpokenLanguages(alias, open);
  const codes = useListingCodes(open);
  const languageNames = new Map((languages.data ?? []).map((language) => [language.code, language.name]));
  const accessibilityLabels = new Map((codes.data?.accessibility ?? []).map((code) => [code.code, code.label]));

  const update = (patch: Partial<SearchFilters>) => setDraft((current) => ({ ...current, ...patch }));
  const nameProblem = nameFilterProblem(draft.searchByName);
  const nameHintId = useId();

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Filter solutions"
      placement="sheet"
      footer={
        <>
          <Button variant="ghost" onClick={() => setDraft(DEFAULT_FILTERS)}>
            Clear All
          </Button>
          <Button
            disabled={nameProblem !== null}
            onClick={() => {
              onApply(draft);
              onClose();
            }}
          >
            View results
          </Button>
        </>
      }
    >
      <div className={styles.form}>
        <FilterChips filters={draft} onChange={setDraft} />

        <div className={styles.field}>
          <label htmlFor={nameId} className={styles.label}>
            Search by organization or provider name
          </label>
          <input
            id={nameId}
            type="search"
            className={styles.input}
            placeholder="Organization or provider name"
            value={draft.searchByName}
            maxLength={NAME_FILTER_MAX_CHARS}
            aria-invalid={nameProblem ? true : undefined}
            aria-describedby={nameHintId}
            onChange={(event) => update({ searchByName: event.target.value })}
          />
          <p id={nameHintId} className={nameProblem ? styles.fieldError : styles.fieldHint} role={nameProblem ? 'alert' : undefined}>
            {nameProblem ?? `Up to ${NAME_FILTER_MAX_WORDS} words and ${NAME_FILTER_MAX_CHARS} characters.`}
          </p>
        </div>

        <div className={styles.field}>
          <label htmlFor={distanceId} className={styles.label}>
            Distance
          </label>
          <div className={styles.slider}>
            <input
              id={distanceId}
              type="range"
              min={0}
              max={MAX_DISTANCE_POSITION}
              step={1}
              value={draft.searchDistance}
              aria-valuetext={sliderLabel(draft.searchDistance)}
              onChange={(event) => update({ searchDistance: Number(event.target.value) })}
            />
            <output htmlFor={distanceId} className={styles.output} data-testid="distance-output">
              {sliderLabel(draft.searchDistance)}
            </output>
          </div>
        </div>

        <div className={styles.checks}>
          <label className={styles.check}>
            <input type="checkbox" checked={draft.newPatients} onChange={(event) => update({ newPatients: event.target.checked })} />
            Only clinics accepting new patients
          </label>
          <label className={styles.check}>
            <input type="checkbox" checked={draft.pediatrics} onChange={(event) => update({ pediatrics: event.target.checked })} />
            Only clinics offering pediatrics
          </label>
          {signedIn ? (
            <label className={styles.check}>
              <input type="checkbox" checked={draft.favorites} onChange={(event) => update({ favorites: event.target.checked })} />
              Favorites
            </label>
          ) : null}
        </div>

        <Checklist
          legend="Group & organization"
          options={organizations.data ?? []}
          selected={draft.selectedGroupAndOrganizations}
          onToggle={(value) => update({ selectedGroupAndOrganizations: toggleValue(draft.selectedGroupAndOrganizations, value) })}
          search={{ value: organizationSearch, onChange: setOrganizationSearch, placeholder: 'Search groups and organizations' }}
          emptyText={organizations.isFetching ? 'Loading...' : 'No group or organization found'}
        />

        <Checklist
          legend="Credentials"
          options={credentials.data ?? []}
          selected={draft.selectedCredentials}
          onToggle={(value) => update({ selectedCredentials: toggleValue(draft.selectedCredentials, value) })}
          emptyText={credentials.isFetching ? 'Loading...' : 'No credentials listed'}
        />

        <Checklist
          legend="Specialities"
          options={specialities.data ?? []}
          selected={draft.selectedSpecialities}
          onToggle={(value) => update({ selectedSpecialities: toggleValue(draft.selectedSpecialities, value) })}
          emptyText={specialities.isFetching ? 'Loading...' : 'No specialities listed'}
        />

        <Checklist
          legend="Languages spoken"
          options={(languages.data ?? [])
            .filter((language) => language.name.toLowerCase().includes(languageSearch.trim().toLowerCase()))
            .map((language) => language.code)}
          selected={draft.selectedLanguages}
          labelFor={(code) => languageNames.get(code) ?? code}
          onToggle={(code) => update({ selectedLanguages: toggleValue(draft.selectedLanguages, code) })}
          search={{ value: languageSearch, onChange: setLanguageSearch, placeholder: 'Search languages' }}
          emptyText={languages.isFetching ? 'Loading...' : 'No language found'}
        />

        <Checklist
          legend="Accessibility"
          options={(codes.data?.accessibility ?? []).map((code) => code.code)}
          selected={draft.selectedAccessibility}
          labelFor={(code) => accessibilityLabels.get(code) ?? code}
          onToggle={(code) => update({ selectedAccessibility: toggleValue(draft.selectedAccessibility, code) })}
          emptyText={codes.isFetching ? 'Loading...' : 'No accessibility options listed'}
        />

        <fieldset className={styles.fieldset}>
          <legend className={styles.label}>Provider gender</legend>
          <div className={styles.genders}>
            {GENDERS.map((code) => (
              <label key={code} className={styles.check}>
                <input
                  type="checkbox"
                  checked={draft.selectedGenders.includes(code)}
                  onChange={() => update({ selectedGenders: toggleValue(draft.selectedGenders, code) })}
                />
                {GENDER_LABELS[code]}
              </label>
            ))}
          </div>
        </fieldset>
      </div>
    </Dialog>
  );
}
