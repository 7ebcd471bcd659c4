import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import type { Plan } from '@/lib/member';
import { accountKeys } from './keys';

/** GET /member/app/plans: the employer's plans (planId, name, groupId). */
export function getPlans(signal?: AbortSignal): Promise<Plan[]> {
  return apiRequest<Plan[] | { plans: Plan[] }>('/member/app/plans', { signal }).then((answer) => (Array.isArray(answer) ? answer : (answer?.plans ?? [])));
}

export function usePlans(enabled = true) {
  return useQuery({ ...queryOptions({ queryKey: accountKeys.plans(), queryFn: ({ signal }) => getPlans(signal) }), enabled });
}
