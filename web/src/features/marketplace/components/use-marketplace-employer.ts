import { useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { potentialEmployersQueryOptions } from '@/api/market/get-potential-employers';
import { useCompanyAlias } from '@/api/market/resolve-company-alias';
import type { Employer } from '@/api/market/types';
import { paths } from '@/config/paths';
import { memberEmployer, useMemberInfo } from '@/lib/member';
import { storedEmployer } from '@/lib/storage';

/**
 * The marketplace's employer: the one chosen before (browser storage), a signed-in member's own
 * employer, or the employer a custom company URL (`?company=`) names; an unknown alias goes back
 * to /marketplace. Also the alias the search and pins send, and whether the employer is still
 * being worked out (`pending`; the employer reads null meanwhile).
 */
export function useMarketplaceEmployer(companyParam: string | null) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [employer, setEmployerState] = useState<Employer | null>(() => storedEmployer.get());

  const setEmployer = useCallback((next: Employer) => {
    setEmployerState(next);
    storedEmployer.set(next);
  }, []);

  // A signed-in member's employer is known: it is the marketplace's until another is chosen.
  const memberInfo = useMemberInfo();
  useEffect(() => {
    if (employer || companyParam) return;
    const known = memberEmployer(memberInfo.data);
    if (known) setEmployer(known);
  }, [employer, companyParam, memberInfo.data, setEmployer]);

  // A custom company URL: resolve the alias, preselect that employer, or fall back to /marketplace.
  const companyAlias = useCompanyAlias(companyParam);
  const alias = companyAlias.data?.alias ?? null;
  useEffect(() => {
    if (companyAlias.isError) navigate(paths.marketplace.path, { replace: true });
  }, [companyAlias.isError, navigate]);
  useEffect(() => {
    const companyName = companyAlias.data?.companyName;
    if (!companyName || employer?.companyName === companyName) return;
    void queryClient.fetchQuery(potentialEmployersQueryOptions(companyName)).then((list) => {
      const match = list.find((item) => item.companyName.toLowerCase() === companyName.toLowerCase());
      setEmployer(match ?? { id: companyName, companyName, status: 'active' });
    });
  }, [companyAlias.data, employer?.companyName, queryClient, setEmployer]);

  // Until a company link's employer (or a signed-in member's own) is known, nothing searches and
  // no employer prompt opens: the link or the account will name the employer.
  const companyPending = companyParam !== null && !companyAlias.isError && (companyAlias.data === undefined || employer?.companyName.toLowerCase() !== companyAlias.data.companyName.toLowerCase());
  const memberPending = employer === null && !companyParam && memberInfo.isLoading;
  const pending = companyPending || memberPending;

  return { employer: pending ? null : employer, setEmployer, alias, pending };
}
