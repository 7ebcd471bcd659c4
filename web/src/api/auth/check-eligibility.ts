import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import type { Member } from '@/lib/member';

/** POST /member/app/eligibility: checks the saved member's eligibility; the answer names the employer. */
export function checkEligibility(user: Partial<Member>): Promise<{ employer?: { companyName?: string } | string | null }> {
  return apiRequest('/member/app/eligibility', { method: 'POST', body: user });
}

export function useCheckEligibility() {
  return useMutation({ mutationFn: checkEligibility });
}
