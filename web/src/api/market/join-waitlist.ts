import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import type { LatLng, SearchFilters } from './types';
import { markWaitlistJoined } from './waitlist-joined';

/** Where the member searched: recorded with every waitlist entry (the notify-me area for a clinic-less search). */
export interface WaitlistSearch {
  location: LatLng | null;
  address: string;
  filters: SearchFilters;
}

export interface WaitlistRequest {
  /** The email to notify; signed in, the server uses the member's own. */
  email?: string;
  /** The signed-in member's id (the server takes the member from the token). */
  member?: number | null;
  /** The clinic location for a clinic waitlist; absent for "notify me near this address". */
  location?: number;
  /** 'I agree to be contacted by the provider' (required signed out). */
  consent?: boolean;
  search: WaitlistSearch;
}

export interface WaitlistAnswer {
  id?: number;
  /** "You've been added to the waitlist". */
  message?: string;
  /** The email was already on this clinic's list. */
  alreadyListed?: boolean;
}

/** POST /member/app/join/wait/list: adds an email to a clinic's waitlist or the notify-me list. */
export function joinWaitlist(request: WaitlistRequest): Promise<WaitlistAnswer> {
  return apiRequest<WaitlistAnswer>('/member/app/join/wait/list', { method: 'POST', body: request });
}

/** Joins; a clinic's waitlist joined (or already joined) is remembered for its cards and profile. */
export function useJoinWaitlist() {
  return useMutation({
    mutationFn: joinWaitlist,
    onSuccess: (_answer, request) => {
      if (request.location !== undefined) markWaitlistJoined(request.location);
    },
  });
}
