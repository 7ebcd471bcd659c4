import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import type { LatLng, SearchFilters } from './types';

export interface WaitlistRequest {
  email: string;
  /** The signed-in member's id, when there is one. */
  member?: string | number | null;
  /** The clinic location for a clinic waitlist; absent for "notify me near this address". */
  location?: number;
  search: { location: LatLng | null; address: string; filters: SearchFilters };
}

/** POST /member/app/join/wait/list: adds an email to a clinic's waitlist or the notify-me list. */
export function joinWaitlist(request: WaitlistRequest): Promise<unknown> {
  return apiRequest<unknown>('/member/app/join/wait/list', { method: 'POST', body: request });
}

export function useJoinWaitlist() {
  return useMutation({ mutationFn: joinWaitlist });
}
