import { useParams } from 'react-router';
import { SessionsCard } from '@/features/account/components/sessions-card';
import { ParticipationReviewPage } from '@/features/provider-portal/components/participation-review-page';
import { ProviderRatesPage } from '@/features/provider-portal/components/provider-rates-page';
import { ProviderSolutionDetails } from '@/features/provider-portal/components/provider-solution-details';
import { ProviderSolutionsPage } from '@/features/provider-portal/components/provider-solutions-page';
import { ProviderSettingsPage } from '@/features/provider-portal/components/provider-settings-page';

/** /dpc-providers/solutions. */
export const ProviderSolutionsRoute = ProviderSolutionsPage;

/** /dpc-providers/solutions/details/{id}. */
export function ProviderSolutionDetailsRoute() {
  const { id } = useParams();
  return <ProviderSolutionDetails key={id} solutionId={Number(id)} />;
}

/** /dpc-providers/rates. */
export const ProviderRatesRoute = ProviderRatesPage;

/** /dpc-providers/settings: where the provider account is signed in, as a member's Settings shows it. */
export function ProviderSettingsRoute() {
  return (
    <ProviderSettingsPage>
      <SessionsCard />
    </ProviderSettingsPage>
  );
}

/** /dpc-providers/participations/review?token=… (public: the facilitator's link). */
export const ParticipationReviewRoute = ParticipationReviewPage;
