import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { queryKeys } from '@/api/query-keys';
import type { Member, Status } from '@/lib/member';

/**
 * The eligibility check a save made at once because the details named another insured person
 * (docs/accounts-contract.md, "Personal info"): `eligible`, the refusal's `code` and `message`,
 * and the check's status code with the member's eligibility status now.
 */
export interface EligibilityCheck {
  eligible: boolean;
  code: string | null;
  message: string | null;
  eligibility: { code: number; status: Status | null; err: { chcDown: boolean } };
}

/** The saved member, with the check the save made (null when the details named the same person). */
export type SavedMember = Member & { eligibilityCheck: EligibilityCheck | null };

/** PUT /member/app/personal/info: saves the member's own details (the whole member object); the answer is the saved member. */
export function updatePersonalInfo(body: Partial<Member>): Promise<SavedMember> {
  return apiRequest<SavedMember>('/member/app/personal/info', { method: 'PUT', body });
}

export function useUpdatePersonalInfo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updatePersonalInfo,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: queryKeys.member.all }),
  });
}
