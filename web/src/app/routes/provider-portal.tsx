import { useParams } from 'react-router';
import { ParticipationReviewPage } from '@/features/provider-portal/components/participation-review-page';
import { ProviderRatesPage } from '@/features/provider-portal/components/provider-rates-page';
import { ProviderSolutionDetails } from '@/features/provider-portal/components/provider-solution-details';
import { ProviderSolutionsPage } from '@/features/provider-portal/components/provider-solutions-page';

/** /dpc-providers/solutions. */
export const ProviderSolutionsRoute = ProviderSolutionsPage;

/** /dpc-providers/solutions/details/{id}. */
export function ProviderSolutionDetailsRoute() {
  const { id } = useParams();
  return <ProviderSolutionDetails key={id} solutionId={Number(id)} />;
}

/** /dpc-providers/rates. */
export const ProviderRatesRoute = ProviderRatesPage;

/** /dpc-providers/participations/review?token=… (public: the facilitator's link). */
export const ParticipationReviewRoute = ParticipationReviewPage;
