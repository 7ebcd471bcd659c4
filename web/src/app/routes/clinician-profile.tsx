import { useParams } from 'react-router';
import { ClinicianProfile } from '@/features/providers/components/clinician-profile';
import { useClinicSelect } from './use-clinic-select';

/**
 * /marketplace/clinician/details/{id}: the profile; Select on one of the clinician's clinics goes
 * through the employer prompt and the enrolment flow, as on a clinic profile.
 */
export default function ClinicianProfileRoute() {
  const { id } = useParams();
  const selection = useClinicSelect();
  return (
    <>
      <ClinicianProfile
        key={id}
        clinicianId={Number(id)}
        selecting={selection.busy}
        onSelect={(clinic) => selection.select({ entity: 'location', providerId: clinic.id, locationId: clinic.locationId, name: clinic.providerName })}
      />
      {selection.dialogs}
    </>
  );
}
