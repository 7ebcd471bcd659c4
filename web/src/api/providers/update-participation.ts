import { useMutation, useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '@/api/query-keys';
import { apiRequest } from '@/lib/api-client';

export interface UpdateParticipationRequest {
  solutionId: number;
  /** A new rate (a pending participation keeps waiting; an active one asks the facilitator again). */
  rate?: string | number;
  /** false stops participating. */
  contracted?: boolean;
}

/** POST /dpcproviders/solutions/{id}: changes the rate of, or stops, the organisation's participation. */
export function updateParticipation({ solutionId, ...body }: UpdateParticipationRequest): Promise<unknown> {
  return apiRequest(`/dpcproviders/solutions/${solutionId}`, { method: 'POST', body });
}

export function useUpdateParticipation() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: updateParticipation, onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.solutions.all }) });
}
