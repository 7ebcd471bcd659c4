import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { isApiError } from '@/lib/api-client';
import { createQueryClient } from '@/lib/query-client';
import { useMemberInfo } from '@/lib/member';
import { MemberStateContext, memberStateFrom, useSelectedDependentId } from '@/lib/member-state';
import { clearAccessToken, useSessionLimits } from '@/lib/session';

/**
 * App-wide providers: the query cache (the entry's when given, a new one otherwise) and the
 * enrolment state of the member acted on.
 */
export function AppProvider({ children, queryClient: given }: { children: ReactNode; queryClient?: QueryClient }) {
  const [queryClient] = useState(() => given ?? createQueryClient());
  useSessionLimits();
  return (
    <QueryClientProvider client={queryClient}>
      <MemberStateProvider>{children}</MemberStateProvider>
    </QueryClientProvider>
  );
}

/**
 * Loads the member when a token cookie exists; null while signed out or loading. A token the
 * server no longer accepts (401: expired, forged, deleted member) is dropped, which signs out.
 */
export function MemberStateProvider({ children }: { children: ReactNode }) {
  const member = useMemberInfo();
  const dependentId = useSelectedDependentId();
  const value = useMemo(() => memberStateFrom(member.data, dependentId), [member.data, dependentId]);
  const sessionRefused = member.isError && isApiError(member.error, 401);
  useEffect(() => {
    if (sessionRefused) clearAccessToken();
  }, [sessionRefused]);
  return <MemberStateContext value={value}>{children}</MemberStateContext>;
}
