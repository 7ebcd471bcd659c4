import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { LatLng, MarketItem, Prediction } from '@/api/market/types';
import { paths } from '@/config/paths';
import { useSignedIn } from '@/lib/session';
import { selectedProvider } from '@/lib/storage';
import type { CardAction } from '../utils/card-action';
import type { WaitlistTarget } from './waitlist-dialog';

interface CardActionsInput {
  requireEmployer: (action: () => void) => void;
  /** Select on a clinic card (the enrolment flow); without it Select stores the clinic and goes to /register. */
  onSelectClinic?: (item: MarketItem) => void;
  searchAt: (origin: LatLng, address: string) => void;
}

/**
 * What a card, a pin or an autocomplete suggestion does: open a profile, join a waitlist (the
 * waitlist dialog's target), select a clinic, or search at a place. All but the waitlist and
 * Confirm eligibility wait for an employer.
 */
export function useCardActions({ requireEmployer, onSelectClinic, searchAt }: CardActionsInput) {
  const navigate = useNavigate();
  const signedIn = useSignedIn();
  const [waitlistItem, setWaitlistItem] = useState<WaitlistTarget | null>(null);

  function openClinic(organisationId: number, locationId: number | undefined) {
    requireEmployer(() => navigate(paths.clinicProfile.getHref(organisationId, locationId)));
  }

  function openDetails(item: MarketItem) {
    requireEmployer(() => {
      if (item.entity === 'provider') navigate(paths.clinicianProfile.getHref(item.id));
      else navigate(paths.clinicProfile.getHref(item.id, item.locationId));
    });
  }

  function onCardAction(item: MarketItem, action: CardAction) {
    switch (action.kind) {
      case 'details':
        openDetails(item);
        return;
      case 'waitlist':
        setWaitlistItem({ locationId: item.locationId, name: item.name });
        return;
      case 'select':
        requireEmployer(() => {
          if (onSelectClinic) {
            onSelectClinic(item);
            return;
          }
          selectedProvider.set({ providerId: item.id, locationId: item.locationId, name: item.name, locationName: item.locationName });
          navigate(signedIn ? paths.clinicProfile.getHref(item.id, item.locationId) : paths.register.path);
        });
        return;
      case 'confirm-eligibility':
        navigate(paths.confirmPlanInformation.path);
        return;
      default:
        return;
    }
  }

  function onPrediction(prediction: Prediction) {
    if (prediction.id !== undefined && prediction.locationId !== undefined) {
      openClinic(prediction.id, prediction.locationId);
    } else if (prediction.location) {
      const location = prediction.location;
      requireEmployer(() => searchAt(location, prediction.description));
    }
  }

  return { waitlistItem, closeWaitlist: () => setWaitlistItem(null), openDetails, onCardAction, onPrediction, openClinic };
}
