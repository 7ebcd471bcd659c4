import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import type { Plan } from '@/lib/member';
import { queryKeys } from '@/api/query-keys';

/** GET /member/app/plans: the plans of the member's employer (planId, name, groupId). */
export function getPlans(signal?: AbortSignal): Promise<Plan[]> {
  return apiRequest<Plan[] | { plans: Plan[] }>('/member/app/plans', { signal }).then((answer) => (Array.isArray(answer) ? answer : (answer?.plans ?? [])));
}

export function plansQueryOptions() {
  return queryOptions({ queryKey: queryKeys.plans.list(), queryFn: ({ signal }) => getPlans(signal) });
}

export function usePlans(enabled: boolean) {
  return useQuery({ ...plansQueryOptions(), enabled });
}
