import { useMutation, useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '@/api/query-keys';
import { apiRequest } from '@/lib/api-client';
import type { SolutionParticipation } from '@/api/solutions/types';

export interface ParticipateRequest {
  solutionId: number;
  rate: string | number;
  /** The agree box: the server refuses anything but true. */
  contracted: true;
  /** The SHA-256 of the contract the provider read; a newer contract is 409 contract_changed. */
  contractVersion?: string;
  /** The provider solution form's e-mail: where the facilitator's decision is emailed. */
  contactEmail?: string;
}

/** POST /dpcproviders/solutions: asks to participate; the facilitator is emailed a review link. */
export function participate(body: ParticipateRequest): Promise<{ message: string; participation: SolutionParticipation }> {
  return apiRequest('/dpcproviders/solutions', { method: 'POST', body });
}

export function useParticipate() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: participate, onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.solutions.all }) });
}
