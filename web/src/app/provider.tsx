import { useState, type ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { createQueryClient } from '@/lib/query-client';
import { MemberStateContext } from '@/lib/member-state';

/** App-wide providers: the query cache and the member state (null until accounts fills it). */
export function AppProvider({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <MemberStateContext value={null}>{children}</MemberStateContext>
    </QueryClientProvider>
  );
}
