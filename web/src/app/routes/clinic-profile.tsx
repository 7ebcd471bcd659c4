import { useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { paths } from '@/config/paths';
import { AddressSearch } from '@/features/marketplace/components/address-search';
import { WaitlistDialog, type WaitlistTarget } from '@/features/marketplace/components/waitlist-dialog';
import { DEFAULT_FILTERS } from '@/features/marketplace/utils/filters';
import { ClinicProfile } from '@/features/providers/components/clinic-profile';
import { lastSearchOrigin } from '@/lib/storage';
import { useClinicSelect } from './use-clinic-select';

/**
 * /marketplace/provider/details/{id}?location={locationId}: the profile, with the waitlist and the
 * enrolment flow behind its footer; Select asks for the employer first when none is chosen yet.
 */
export default function ClinicProfileRoute() {
  const { id } = useParams();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [waitlist, setWaitlist] = useState<WaitlistTarget | null>(null);
  const selection = useClinicSelect();
  const locationParam = params.get('location');
  const organisationId = Number(id);
  const locationId = locationParam ? Number(locationParam) : null;
  const searchElsewhere = (address: string) => navigate(paths.marketplace.getHref({ location: address }));

  return (
    <>
      <ClinicProfile
        key={`${organisationId}-${locationId}`}
        organisationId={organisationId}
        locationId={locationId}
        onJoinWaitlist={setWaitlist}
        onSelect={(clinic) => selection.select({ entity: 'location', ...clinic })}
        selecting={selection.busy}
        locationSearch={
          <AddressSearch
            onPlace={(place) => searchElsewhere(place.label)}
            onText={searchElsewhere}
            onClinic={(prediction) => {
              if (prediction.id !== undefined) navigate(paths.clinicProfile.getHref(prediction.id, prediction.locationId));
            }}
          />
        }
      />
      <WaitlistDialog item={waitlist} onClose={() => setWaitlist(null)} search={{ location: lastSearchOrigin.get(), address: '', filters: DEFAULT_FILTERS }} />
      {selection.dialogs}
    </>
  );
}
