import { MemberPicker } from '@/features/enrolment/components/member-picker';
import { useLazyProviderSelection } from '@/features/enrolment/components/use-lazy-provider-selection';
import { MarketplacePage } from '@/features/marketplace/components/marketplace-page';
import { SolutionCategories } from '@/features/solutions/components/solution-categories';
import { useMemberState } from '@/lib/member-state';

/**
 * /marketplace: the search page, with the member picker above and the solution categories below
 * the results; Select on a card runs the enrolment flow (the page asks for an employer first),
 * whose code loads on the first Select.
 */
export function MarketplaceRoute() {
  const member = useMemberState();
  const selection = useLazyProviderSelection();
  return (
    <>
      <MarketplacePage
        member={member}
        headerSlot={<MemberPicker />}
        footerSlot={<SolutionCategories />}
        selecting={selection.busy}
        onSelectClinic={(item) => selection.select({ entity: item.entity, providerId: item.id, locationId: item.locationId, name: item.name || item.locationName, locationName: item.locationName })}
      />
      {selection.dialogs}
    </>
  );
}
