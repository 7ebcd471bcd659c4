import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { eligibilityKeys } from './keys';
import type { PostEnrollment } from './types';

/** GET /member/app/provider/{providerId}/postenrollment: a provider's custom post-enrolment redirect, if any. */
export function getPostEnrollment(providerId: number, signal?: AbortSignal): Promise<PostEnrollment> {
  return apiRequest<PostEnrollment>(`/member/app/provider/${providerId}/postenrollment`, { signal });
}

export function postEnrollmentQueryOptions(providerId: number) {
  return queryOptions({ queryKey: eligibilityKeys.postEnrollment(providerId), queryFn: ({ signal }) => getPostEnrollment(providerId, signal) });
}
