import { MembershipPage } from '@/features/membership/components/membership-page';

/** /membership (loaded on demand). */
export const MembershipRoute = MembershipPage;
