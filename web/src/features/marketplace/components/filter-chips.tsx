import { Chip } from '@/components/ui/chip';
import type { SearchFilters } from '@/api/market/types';
import { activeFilterChips } from '../utils/filters';
import styles from './filter-chips.module.css';
import { useCodeNames } from './use-code-names';

/** One removable chip per active filter; nothing when none is active. */
export function FilterChips({ filters, onChange }: { filters: SearchFilters; onChange: (filters: SearchFilters) => void }) {
  const listed = filters.selectedLanguages.length > 0 || filters.selectedAccessibility.length > 0;
  const names = useCodeNames(listed);
  const chips = activeFilterChips(filters, names);
  if (chips.length === 0) return null;
  return (
    <ul className={styles.chips} aria-label="Active filters">
      {chips.map((chip) => (
        <li key={chip.key}>
          <Chip label={chip.label} onRemove={() => onChange(chip.without(filters))} />
        </li>
      ))}
    </ul>
  );
}
