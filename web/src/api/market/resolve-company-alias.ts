import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { queryKeys } from '@/api/query-keys';
import type { Employer } from './types';

export interface CompanyAlias {
  companyName: string;
  alias: string;
  /** The employer's own id and status: the answer is the employer the link names. */
  id: number;
  status: Employer['status'];
}

/** The employer a company link names, as the employer select would give it. */
export function aliasEmployer({ id, companyName, status }: CompanyAlias): Employer {
  return { id, companyName, status };
}

/** POST /market/organization/from/alias: the employer behind a custom company URL (404 if none). */
export function resolveCompanyAlias(alias: string, signal?: AbortSignal): Promise<CompanyAlias> {
  return apiRequest<CompanyAlias>('/market/organization/from/alias', { method: 'POST', body: { company: alias }, signal });
}

export function companyAliasQueryOptions(alias: string) {
  return queryOptions({
    queryKey: queryKeys.market.companyAlias(alias),
    queryFn: ({ signal }) => resolveCompanyAlias(alias, signal),
    staleTime: Infinity,
  });
}

export function useCompanyAlias(alias: string | null) {
  return useQuery({ ...companyAliasQueryOptions(alias ?? ''), enabled: Boolean(alias) });
}
