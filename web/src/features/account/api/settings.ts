/** Account settings calls: email change, passwords and email notifications. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { memberKeys, type Member } from '@/lib/member';

/** POST /member/app/validate/email with status 'all': valid false means the email is taken. */
export function validateEmail(email: string): Promise<{ valid: boolean; message?: string; reason?: string }> {
  return apiRequest('/member/app/validate/email', { method: 'POST', body: { email, status: 'all' } });
}

/** POST /member/app/change/email: sends the verification link to the new address. */
export function changeEmail(email: string): Promise<unknown> {
  return apiRequest('/member/app/change/email', { method: 'POST', body: { email } });
}

/** POST /member/app/password/change: the current password is checked by the server ('Invalid password'). */
export function changePassword(body: { password: string; currentPassword: string }): Promise<unknown> {
  return apiRequest('/member/app/password/change', { method: 'POST', body });
}

/** POST /member/app/password/reset without a link token: a first password for a signed-in member without one. */
export function setFirstPassword(body: { password: string }): Promise<unknown> {
  return apiRequest('/member/app/password/reset', { method: 'POST', body });
}

export function useValidateEmail() {
  return useMutation({ mutationFn: validateEmail });
}

export function useChangeEmail() {
  return useMutation({ mutationFn: changeEmail });
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}

export function useSetFirstPassword() {
  return useMutation({ mutationFn: setFirstPassword });
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
      queryClient.setQueryData<Member>(memberKeys.info(), (member) => (member ? { ...member, notify: answer.notify } : member));
    },
  });
}
