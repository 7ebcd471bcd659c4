/**
 * Where the account is signed in (GET /member/app/sessions), and ending one session
 * (DELETE /member/app/sessions/{id}) or every other one (DELETE /member/app/sessions).
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '@/api/query-keys';
import { apiRequest } from '@/lib/api-client';

/** One sign-in: the browser and system it came from, its network (never the address), and when it was last used. */
export interface SignedInSession {
  id: number;
  /** The session of this browser. */
  current: boolean;
  device: string;
  network: string;
  createdAt: string;
  lastActiveAt: string;
  expiresAt: string;
}

export interface SessionList {
  sessions: SignedInSession[];
  /** How long without a request ends a session, in words ('12 hours'). */
  idleLimit: string;
  /** How long after signing in a session ends, in words ('30 days'). */
  absoluteLimit: string;
}

export function getSessions(signal?: AbortSignal): Promise<SessionList> {
  return apiRequest<SessionList>('/member/app/sessions', { signal });
}

/** Read afresh whenever shown: another device may have signed in or out meanwhile. */
export function sessionsQueryOptions() {
  return queryOptions({ queryKey: queryKeys.sessions.list(), queryFn: ({ signal }) => getSessions(signal), staleTime: 0 });
}

export function useSessions() {
  return useQuery(sessionsQueryOptions());
}

/** DELETE /member/app/sessions/{id}: signs that session out on every server. */
export function endSignedInSession(id: number): Promise<unknown> {
  return apiRequest(`/member/app/sessions/${id}`, { method: 'DELETE' });
}

/** DELETE /member/app/sessions: "Sign out of all other devices". */
export function endOtherSessions(): Promise<unknown> {
  return apiRequest('/member/app/sessions', { method: 'DELETE' });
}

export function useEndSession() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: endSignedInSession, onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.sessions.all }) });
}

export function useEndOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: endOtherSessions, onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.sessions.all }) });
}
