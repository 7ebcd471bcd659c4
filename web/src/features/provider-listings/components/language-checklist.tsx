import { useState } from 'react';
import { Checklist } from '@/components/ui/checklist';
import { toggle } from '@/lib/toggle';
import type { LanguageName } from '@/api/listings/types';

/**
 * Every language a listing may name, searchable by name or code, the chosen ones first.
 */
export function LanguageChecklist({ languages, selected, onChange }: { languages: LanguageName[]; selected: string[]; onChange: (codes: string[]) => void }) {
  const [search, setSearch] = useState('');
  const names = new Map(languages.map((language) => [language.code, language.name]));
  const wanted = search.trim().toLowerCase();
  const options = languages
    .filter((language) => !wanted || language.name.toLowerCase().includes(wanted) || language.code === wanted)
    .map((language) => language.code)
    .sort((a, b) => Number(selected.includes(b)) - Number(selected.includes(a)));
  return (
    <Checklist
      legend="Languages spoken"
      options={options}
      selected={selected}
      labelFor={(code) => names.get(code) ?? code}
      onToggle={(code) => onChange(toggle(selected, code))}
      search={{ value: search, onChange: setSearch, placeholder: 'Search languages' }}
      emptyText="No language matches"
    />
  );
}
