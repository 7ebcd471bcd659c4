import { MarketplacePage } from '@/features/marketplace/components/marketplace-page';
import { SolutionCategories } from '@/features/solutions/components/solution-categories';
import { useMemberState } from '@/lib/member-state';

/** /marketplace: the search page, with the solution categories below the results. */
export function MarketplaceRoute() {
  const member = useMemberState();
  return <MarketplacePage member={member} footerSlot={<SolutionCategories />} />;
}
