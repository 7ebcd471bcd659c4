import { useCallback, useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { potentialEmployersQueryOptions } from '@/api/market/get-potential-employers';
import { aliasEmployer, useCompanyAlias } from '@/api/market/resolve-company-alias';
import type { Employer } from '@/api/market/types';
import { paths } from '@/config/paths';
import { memberEmployer, useMemberInfo } from '@/lib/member';
import { storedEmployer } from '@/lib/storage';

/** The URL parameter that carries an employer chosen in the select, so a shared link keeps it. */
export const EMPLOYER_PARAM = 'employer';

/**
 * The marketplace's employer: the one a custom company URL (`?company=`) names, the one a shared
 * link names (`?employer=`, written whenever an employer is chosen here), the one chosen before
 * (browser storage), or a signed-in member's own; an unknown alias goes back to /marketplace.
 * Also the alias the search and pins send, and whether the employer is still being worked out
 * (`pending`; the employer reads null meanwhile).
 */
export function useMarketplaceEmployer(companyParam: string | null, setParam: (name: string, value: string | null) => void) {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const linkedName = companyParam ? null : (params.get(EMPLOYER_PARAM)?.trim() || null);
  const companyAlias = useCompanyAlias(companyParam);
  const [employer, setEmployerState] = useState<Employer | null>(() => storedEmployer.get());
  // A custom company URL's employer is the alias's answer (id, name and status), whatever was
  // chosen before: taken in the render that brings the answer (the entry asks before React
  // renders), not one render later from an effect, so the results can show in that render.
  const companyEmployer = companyAlias.data ?? null;
  if (companyEmployer && employer?.companyName !== companyEmployer.companyName) setEmployerState(aliasEmployer(companyEmployer));

  const setEmployer = useCallback((next: Employer) => {
    setEmployerState(next);
    storedEmployer.set(next);
  }, []);

  // A shared link's employer, looked up by name; a name no employer has is dropped from the URL.
  const linkedDiffers = linkedName !== null && employer?.companyName.toLowerCase() !== linkedName.toLowerCase();
  const linked = useQuery({ ...potentialEmployersQueryOptions(linkedName ?? ''), enabled: linkedDiffers });
  useEffect(() => {
    if (!linkedDiffers || !linked.data || linked.isPlaceholderData) return;
    const match = linked.data.find((item) => item.companyName.toLowerCase() === linkedName!.toLowerCase());
    if (match) setEmployer(match);
    else setParam(EMPLOYER_PARAM, null);
  }, [linkedDiffers, linked.data, linked.isPlaceholderData, linkedName, setEmployer, setParam]);
  const linkPending = linkedDiffers && !linked.isError;

  // A signed-in member's employer is known: it is the marketplace's until another is chosen.
  const memberInfo = useMemberInfo();
  useEffect(() => {
    if (employer || companyParam || linkedName) return;
    const known = memberEmployer(memberInfo.data);
    if (known) setEmployer(known);
  }, [employer, companyParam, linkedName, memberInfo.data, setEmployer]);

  // A custom company URL: its employer is kept for the next visit as a choice would be; an
  // unknown alias falls back to /marketplace.
  const alias = companyAlias.data?.alias ?? null;
  useEffect(() => {
    if (companyAlias.isError) navigate(paths.marketplace.path, { replace: true });
  }, [companyAlias.isError, navigate]);
  useEffect(() => {
    if (companyEmployer && storedEmployer.get()?.companyName !== companyEmployer.companyName) storedEmployer.set(aliasEmployer(companyEmployer));
  }, [companyEmployer]);

  // Until a company link's employer (or a signed-in member's own) is known, nothing searches and
  // no employer prompt opens: the link or the account will name the employer.
  const companyPending = companyParam !== null && !companyAlias.isError && (companyAlias.data === undefined || employer?.companyName.toLowerCase() !== companyAlias.data.companyName.toLowerCase());
  const memberPending = employer === null && !companyParam && memberInfo.isLoading;
  const pending = companyPending || memberPending || linkPending;

  // The employer in force goes into the URL (unless a company link names it), so a link copied
  // from here opens with it.
  const settledName = !pending && !companyParam ? (employer?.companyName ?? null) : null;
  useEffect(() => {
    if (settledName) setParam(EMPLOYER_PARAM, settledName);
  }, [settledName, setParam]);

  return { employer: pending ? null : employer, setEmployer, alias, pending };
}
