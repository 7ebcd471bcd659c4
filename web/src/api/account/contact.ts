/** How to reach the member: the mobile phone alone, and a request to be called back. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { queryKeys } from '@/api/query-keys';
import type { Member } from '@/lib/member';
import type { EligibilityCheck } from './personal-info';

/** PUT /member/app/personal/contact: saves the member's mobile phone; answers the member. */
export function updateContact(body: { phone: string }): Promise<Member> {
  return apiRequest<Member>('/member/app/personal/contact', { method: 'PUT', body });
}

export function useUpdateContact() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateContact,
    onSuccess: (member) => {
      queryClient.setQueryData(queryKeys.member.info(), member);
      void queryClient.invalidateQueries({ queryKey: queryKeys.member.all });
    },
  });
}

export interface ContactRequestAnswer {
  id: number;
  message: string;
  eligibilityCheck: EligibilityCheck | null;
}

/** POST /member/app/contact/request (/confirm-info): saves the name and phone, records the request and tells support. */
export function requestContact(body: { firstName: string; lastName: string; phone: string }): Promise<ContactRequestAnswer> {
  return apiRequest<ContactRequestAnswer>('/member/app/contact/request', { method: 'POST', body });
}

export function useRequestContact() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: requestContact,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: queryKeys.member.all }),
  });
}
