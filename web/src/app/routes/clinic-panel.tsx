import { useParams } from 'react-router';
import { MemberDetailPage } from '@/features/clinic-panel/components/member-detail-page';
import { MembersPage } from '@/features/clinic-panel/components/members-page';

/** /dpc-providers/members. */
export const ProviderMembersRoute = MembersPage;

/** /dpc-providers/members/{id} (the clinic's emails link here). */
export function ProviderMemberRoute() {
  const { id } = useParams();
  return <MemberDetailPage key={id} memberId={Number(id)} />;
}
