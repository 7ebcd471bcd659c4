import { useMutation } from '@tanstack/react-query';
import { ApiError, apiRequest } from '@/lib/api-client';
import type { Plan } from '@/lib/member';
import { MESSAGES } from '@/lib/validation';

/**
 * GET /member/app/plan/{planID}: one plan by its id (the 'Insert Your plan ID' dialog). An
 * unknown id answers 404 `{message, code: 'plan_not_found', err}`.
 */
export function getPlan(planId: string, signal?: AbortSignal): Promise<Plan> {
  return apiRequest<Plan>(`/member/app/plan/${encodeURIComponent(planId.trim())}`, { signal });
}

/** Pull Benefits: looks the typed Plan ID up. */
export function usePlanLookup() {
  return useMutation({ mutationFn: (planId: string) => getPlan(planId) });
}

/** The text a failed lookup shows: the server's `err`, else its message, else the general text. */
export function planLookupError(error: unknown): string {
  if (error instanceof ApiError) {
    const err = (error.body as { err?: unknown } | null)?.err;
    if (typeof err === 'string' && err.trim()) return err;
    if (error.message) return error.message;
  }
  return MESSAGES.somethingWrong;
}
