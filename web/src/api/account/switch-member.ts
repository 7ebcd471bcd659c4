import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

export interface MemberToken {
  accessToken: string;
  type: string;
  id: number;
}

/**
 * GET /member/app/token/dependent/{id}: a token acting as a family member (its `act` claim is the
 * subscriber); with such a token, the subscriber's own id switches back.
 */
export function getMemberToken(id: number): Promise<MemberToken> {
  return apiRequest<MemberToken>(`/member/app/token/dependent/${id}`);
}

export function useSwitchMember() {
  return useMutation({ mutationFn: getMemberToken });
}
