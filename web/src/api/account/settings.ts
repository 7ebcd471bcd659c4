/** Account settings calls: email change, password change and email notifications (a first password is the reset-password call). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { queryKeys } from '@/api/query-keys';
import type { Member } from '@/lib/member';

/** POST /member/app/change/email: checks the current password, then sends the verification link to the new address. */
export function changeEmail(body: { email: string; currentPassword: string }): Promise<unknown> {
  return apiRequest('/member/app/change/email', { method: 'POST', body });
}

/** POST /member/app/password/change: the current password is checked by the server ('Invalid password'). */
export function changePassword(body: { password: string; currentPassword: string }): Promise<unknown> {
  return apiRequest('/member/app/password/change', { method: 'POST', body });
}

export function useChangeEmail() {
  return useMutation({ mutationFn: changeEmail });
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}

/** PUT /member/app/notifications: turns the member's email notifications on or off; answers `{notify}`. */
export function setNotifications(notify: boolean): Promise<{ notify: boolean }> {
  return apiRequest('/member/app/notifications', { method: 'PUT', body: { notify } });
}

/** Saves the notification switch; the cached member takes the server's answer once it is accepted. */
export function useSetNotifications() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setNotifications,
    onSuccess: (answer) => {
      queryClient.setQueryData<Member>(queryKeys.member.info(), (member) => (member ? { ...member, notify: answer.notify } : member));
    },
  });
}
