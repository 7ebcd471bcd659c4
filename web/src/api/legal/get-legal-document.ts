import { queryOptions, useQuery } from '@tanstack/react-query';
import { queryKeys } from '@/api/query-keys';
import { apiRequest } from '@/lib/api-client';

export type LegalDocumentName = 'terms' | 'privacy' | 'cookies';

/** A legal page as the operator wrote it: Markdown, and a version that changes with every edit. */
export interface LegalDocument {
  document: LegalDocumentName;
  title: string;
  version: string;
  text: string;
}

/** GET /legal/{document}. */
export function getLegalDocument(document: LegalDocumentName, signal?: AbortSignal): Promise<LegalDocument> {
  return apiRequest<LegalDocument>(`/legal/${document}`, { signal });
}

export function legalDocumentQueryOptions(document: LegalDocumentName) {
  return queryOptions({
    queryKey: queryKeys.legal.document(document),
    queryFn: ({ signal }) => getLegalDocument(document, signal),
    staleTime: 10 * 60_000,
  });
}

export function useLegalDocument(document: LegalDocumentName) {
  return useQuery(legalDocumentQueryOptions(document));
}
