import { useState } from 'react';
import { SearchableSelect, type SelectOption } from '@/components/ui/searchable-select';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { usePotentialEmployers } from '@/api/market/get-potential-employers';
import { typedNameIsUnknown, type ChosenEmployer } from '../utils/employer-match';

const TYPED_OPTION_ID = '__typed__';

/**
 * Search-as-you-type employer selection (2.2). A name with no exact or prefix match can still be
 * chosen; it is then an inactive employer of that name.
 */
export function EmployerPicker({ employer, onChange }: { employer: ChosenEmployer | null; onChange: (employer: ChosenEmployer) => void }) {
  const [search, setSearch] = useState('');
  const debounced = useDebouncedValue(search, 200);
  const employers = usePotentialEmployers(debounced);
  const list = employers.data ?? [];
  const options: SelectOption[] = list.map((item) => ({
    id: String(item.id),
    label: item.companyName,
    hint: item.status === 'active' ? undefined : item.status,
  }));
  const typed = debounced.trim();
  if (typed && !employers.isFetching && typedNameIsUnknown(typed, list)) {
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
      loading={employers.isFetching}
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
