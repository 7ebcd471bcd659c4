import { useMemo, useState, type ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { createQueryClient } from '@/lib/query-client';
import { useMemberInfo } from '@/lib/member';
import { MemberStateContext, memberStateFrom } from '@/lib/member-state';

/** App-wide providers: the query cache and the signed-in member's enrolment state. */
export function AppProvider({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <MemberStateProvider>{children}</MemberStateProvider>
    </QueryClientProvider>
  );
}

/** Loads the member when a token cookie exists; null while signed out or loading. */
export function MemberStateProvider({ children }: { children: ReactNode }) {
  const member = useMemberInfo();
  const value = useMemo(() => memberStateFrom(member.data), [member.data]);
  return <MemberStateContext value={value}>{children}</MemberStateContext>;
}
