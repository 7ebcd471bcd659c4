import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { eligibilityKeys } from './keys';
import type { ProviderCard } from './types';

/** GET /member/app/market/provider/{providerId}?locationId=: the chosen provider for the card. */
export function getProvider(providerId: number, locationId: number | null, signal?: AbortSignal): Promise<ProviderCard> {
  return apiRequest<ProviderCard>(`/member/app/market/provider/${providerId}`, { signal, query: { locationId } });
}

export function providerQueryOptions(providerId: number, locationId: number | null) {
  return queryOptions({ queryKey: eligibilityKeys.provider(providerId, locationId), queryFn: ({ signal }) => getProvider(providerId, locationId, signal) });
}

export function useProvider(providerId: number | null, locationId: number | null) {
  return useQuery({ ...providerQueryOptions(providerId ?? 0, locationId), enabled: providerId !== null && providerId > 0 });
}
