import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { queryKeys } from '@/api/query-keys';
import { apiRequest } from '@/lib/api-client';
import type { ParticipationReview, ReviewDecision } from './types';

/** GET /dpcproviders/participations/review?token=: what the facilitator's link asks; 410 when used or expired. */
export function getParticipationReview(token: string, signal?: AbortSignal): Promise<ParticipationReview> {
  return apiRequest<ParticipationReview>('/dpcproviders/participations/review', { signal, query: { token } });
}

export function participationReviewQueryOptions(token: string) {
  // The link is single use: once decided it answers 410, so the first answer is kept.
  return queryOptions({ queryKey: queryKeys.providers.review(token), queryFn: ({ signal }) => getParticipationReview(token, signal), staleTime: Infinity, retry: false });
}

export function useParticipationReview(token: string) {
  return useQuery({ ...participationReviewQueryOptions(token), enabled: token !== '' });
}

/** POST /dpcproviders/participations/review: approves or declines, consuming the link. */
export function decideParticipation(body: { token: string; decision: ReviewDecision }): Promise<{ status: string; message: string }> {
  return apiRequest('/dpcproviders/participations/review', { method: 'POST', body });
}

export function useDecideParticipation() {
  return useMutation({ mutationFn: decideParticipation });
}
