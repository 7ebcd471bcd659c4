import { MemberMenu } from '@/features/account/components/member-menu';
import { ProviderMenu } from '@/features/provider-portal/components/provider-menu';
import { useAccountKind } from '@/lib/session';

/**
 * The header's account corner (composed here: the shell cannot import features): the avatar menu
 * for members, the organisation's name and Sign Out for a DPC provider.
 */
export function MemberMenuSlot() {
  return useAccountKind() === 'provider' ? <ProviderMenu /> : <MemberMenu />;
}
