import { useParams } from 'react-router';
import { SolutionDetails } from '@/features/solutions/components/solution-details';

/** /marketplace/solutions/details/{id} and /marketplace/details/{id}. */
export default function SolutionDetailsRoute() {
  const { id } = useParams();
  return <SolutionDetails key={id} solutionId={Number(id)} />;
}
