import { useEmployerSearch } from '@/components/forms/use-employer-search';
import { SearchableSelect } from '@/components/ui/searchable-select';
import type { Employer } from '@/api/market/types';

/** The spec's texts for the employer select. */
export const EMPLOYER_SELECT_TEXTS = {
  placeholder: 'Select your employer',
  empty: 'No employer found',
  search: 'Search employer here',
} as const;

interface EmployerSelectProps {
  employer: Employer | null;
  onChange: (employer: Employer) => void;
  autoFocus?: boolean;
  inline?: boolean;
  /** The employer is being worked out (a company link, the member's account): no choice is offered yet. */
  pending?: boolean;
}

/** A search-as-you-type employer picker backed by /member/app/potential/employers. */
export function EmployerSelect({ employer, onChange, autoFocus, inline, pending = false }: EmployerSelectProps) {
  const { search, setSearch, loading, list, options } = useEmployerSearch();

  return (
    <SearchableSelect
      label="Employer"
      placeholder={pending ? 'Loading your employer…' : EMPLOYER_SELECT_TEXTS.placeholder}
      busy={pending}
      searchPlaceholder={EMPLOYER_SELECT_TEXTS.search}
      emptyText={EMPLOYER_SELECT_TEXTS.empty}
      options={options}
      selectedLabel={employer?.companyName ?? null}
      search={search}
      onSearchChange={setSearch}
      loading={loading}
      autoFocus={autoFocus}
      inline={inline}
      onSelect={(option) => {
        const chosen = list.find((item) => String(item.id) === option.id);
        if (chosen) onChange(chosen);
      }}
    />
  );
}
