import { useParams } from 'react-router';
import { ClinicianProfile } from '@/features/providers/components/clinician-profile';

/** /marketplace/clinician/details/{id}. */
export default function ClinicianProfileRoute() {
  const { id } = useParams();
  return <ClinicianProfile key={id} clinicianId={Number(id)} />;
}
