import { useState } from 'react';
import type { SelectOption } from '@/components/ui/searchable-select';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { usePotentialEmployers } from '@/api/market/get-potential-employers';

/**
 * The search behind the employer selects: what is typed, the employers found for it after a
 * 200 ms pause, and those employers as options (an inactive one hints its status).
 */
export function useEmployerSearch() {
  const [search, setSearch] = useState('');
  const debounced = useDebouncedValue(search, 200);
  const employers = usePotentialEmployers(debounced);
  const list = employers.data ?? [];
  const options: SelectOption[] = list.map((item) => ({
    id: String(item.id),
    label: item.companyName,
    hint: item.status === 'active' ? undefined : item.status,
  }));
  return { search, setSearch, debounced, loading: employers.isFetching, list, options };
}
