import { useEmployerSearch } from '@/components/forms/use-employer-search';
import { SearchableSelect } from '@/components/ui/searchable-select';
import { typedNameIsUnknown, type ChosenEmployer } from '../utils/employer-match';

const TYPED_OPTION_ID = '__typed__';

/**
 * Search-as-you-type employer selection (2.2). A name with no exact or prefix match can still be
 * chosen; it is then an inactive employer of that name.
 */
export function EmployerPicker({ employer, onChange }: { employer: ChosenEmployer | null; onChange: (employer: ChosenEmployer) => void }) {
  const { search, setSearch, debounced, loading, list, options } = useEmployerSearch();
  const typed = debounced.trim();
  if (typed && !loading && typedNameIsUnknown(typed, list)) {
    options.push({ id: TYPED_OPTION_ID, label: typed, hint: 'not listed' });
  }

  return (
    <SearchableSelect
      label="Employer"
      placeholder="Select your employer"
      searchPlaceholder="Search employer here"
      emptyText="No employer found"
      options={options}
      selectedLabel={employer?.companyName ?? null}
      search={search}
      onSearchChange={setSearch}
      loading={loading}
      onSelect={(option) => {
        if (option.id === TYPED_OPTION_ID) {
          onChange({ id: null, companyName: option.label, status: 'inactive' });
          return;
        }
        const chosen = list.find((item) => String(item.id) === option.id);
        if (chosen) onChange(chosen);
      }}
    />
  );
}
