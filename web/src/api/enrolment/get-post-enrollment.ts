import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { queryKeys } from '@/api/query-keys';

export interface PostEnrollment {
  /** Null (or absent) when the location has no custom post-enrolment step. */
  postMemberEnrollment?: { redirect?: string | null } | null;
}

/** GET /member/app/provider/{providerId}/postenrollment?locationId=: the clinic's custom member portal, if any. */
export function getPostEnrollment(providerId: number, locationId: number | null = null, signal?: AbortSignal): Promise<PostEnrollment> {
  return apiRequest<PostEnrollment>(`/member/app/provider/${providerId}/postenrollment`, { signal, query: { locationId } });
}

export function postEnrollmentQueryOptions(providerId: number, locationId: number | null = null) {
  return queryOptions({
    queryKey: queryKeys.enrolment.postEnrollment(providerId, locationId),
    queryFn: ({ signal }) => getPostEnrollment(providerId, locationId, signal),
    staleTime: 0,
  });
}
