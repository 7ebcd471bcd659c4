import { useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { paths } from '@/config/paths';
import { useProviderSelection } from '@/features/enrolment/components/use-provider-selection';
import type { ClinicTarget } from '@/features/enrolment/utils/select-provider';
import { AddressSearch } from '@/features/marketplace/components/address-search';
import { EmployerNeededDialog } from '@/features/marketplace/components/employer-needed-dialog';
import { WaitlistDialog, type WaitlistTarget } from '@/features/marketplace/components/waitlist-dialog';
import { DEFAULT_FILTERS } from '@/features/marketplace/utils/filters';
import { ClinicProfile } from '@/features/providers/components/clinic-profile';
import { memberEmployer, useMemberInfo } from '@/lib/member';
import { lastSearchOrigin, storedEmployer } from '@/lib/storage';

/**
 * /marketplace/provider/details/{id}?location={locationId}: the profile, with the waitlist and the
 * enrolment flow behind its footer; Select asks for the employer first when none is chosen yet.
 */
export default function ClinicProfileRoute() {
  const { id } = useParams();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [waitlist, setWaitlist] = useState<WaitlistTarget | null>(null);
  const [waitingForEmployer, setWaitingForEmployer] = useState<ClinicTarget | null>(null);
  const selection = useProviderSelection({ employerChosen: true });
  const member = useMemberInfo();
  const locationParam = params.get('location');
  const organisationId = Number(id);
  const locationId = locationParam ? Number(locationParam) : null;
  const searchElsewhere = (address: string) => navigate(paths.marketplace.getHref({ location: address }));

  function select(target: ClinicTarget) {
    // A signed-in member's own employer counts as chosen.
    const known = memberEmployer(member.data);
    if (storedEmployer.get() === null && known) storedEmployer.set(known);
    if (storedEmployer.get() === null) setWaitingForEmployer(target);
    else selection.select(target);
  }

  return (
    <>
      <ClinicProfile
        key={`${organisationId}-${locationId}`}
        organisationId={organisationId}
        locationId={locationId}
        onJoinWaitlist={setWaitlist}
        onSelect={(clinic) => select({ entity: 'location', ...clinic })}
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
      <EmployerNeededDialog
        open={waitingForEmployer !== null}
        onClose={() => setWaitingForEmployer(null)}
        onChosen={(employer) => {
          storedEmployer.set(employer);
          const target = waitingForEmployer;
          setWaitingForEmployer(null);
          if (target) selection.select(target);
        }}
      />
      {selection.dialogs}
    </>
  );
}
