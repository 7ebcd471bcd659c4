import { MemberMenu } from '@/features/account/components/member-menu';

/** The avatar menu the shell shows to signed-in members (composed here: the shell cannot import features). */
export function MemberMenuSlot() {
  return <MemberMenu />;
}
