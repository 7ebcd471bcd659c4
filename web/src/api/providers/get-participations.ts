import { queryOptions, useQuery } from '@tanstack/react-query';
import { queryKeys } from '@/api/query-keys';
import { apiRequest } from '@/lib/api-client';
import type { Participation } from './types';

/** GET /dpcproviders/participations: the organisation's participations, newest first. */
export function getParticipations(signal?: AbortSignal): Promise<Participation[]> {
  return apiRequest<Participation[]>('/dpcproviders/participations', { signal });
}

export function participationsQueryOptions() {
  return queryOptions({ queryKey: queryKeys.solutions.participations(), queryFn: ({ signal }) => getParticipations(signal) });
}

export function useParticipations() {
  return useQuery(participationsQueryOptions());
}
