import { useMemo } from 'react';
import { useListingCodes } from '@/api/listings/get-listing-codes';
import type { CodeNames } from '../utils/filters';

/** What language and accessibility codes are called (the codes themselves until the list loads). */
export function useCodeNames(enabled = true): CodeNames {
  const codes = useListingCodes(enabled);
  return useMemo(() => {
    const languages = new Map((codes.data?.languages ?? []).map((language) => [language.code, language.name]));
    const accessibility = new Map((codes.data?.accessibility ?? []).map((code) => [code.code, code.label]));
    return {
      language: (code: string) => languages.get(code) ?? code,
      accessibility: (code: string) => accessibility.get(code) ?? code,
    };
  }, [codes.data]);
}
