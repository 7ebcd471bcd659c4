import { fullName, useMemberInfo } from '@/lib/member';
import { useSignedIn } from '@/lib/session';

/** The signed-in member a waitlist entry is for: their email (if any) and name; null signed out. */
export function useWaitlistMember() {
  const signedIn = useSignedIn();
  const member = useMemberInfo();
  if (!signedIn) return { signedIn: false as const, loading: false, member: null };
  if (!member.data) return { signedIn: true as const, loading: member.isPending, member: null };
  const email = member.data.email?.trim() || null;
  return { signedIn: true as const, loading: false, member: { id: member.data.id, email, name: fullName(member.data) || 'This member' } };
}

/** '{name} has no email': a signed-in member without an email cannot join a waitlist. */
export function noEmailText(name: string): string {
  return `${name} has no email`;
}
