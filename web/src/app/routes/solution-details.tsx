import { Navigate, useParams } from 'react-router';
import { paths } from '@/config/paths';
import { SolutionDetails } from '@/features/solutions/components/solution-details';
import { useAccountKind } from '@/lib/session';

/** /marketplace/solutions/details/{id} and /marketplace/details/{id}; a provider gets the provider's detail of the same solution. */
export default function SolutionDetailsRoute() {
  const { id } = useParams();
  const account = useAccountKind();
  if (account === 'provider' && id) return <Navigate to={paths.providerSolutionDetails.getHref(id)} replace />;
  return <SolutionDetails key={id} solutionId={Number(id)} />;
}
