/**
 * The add-dependent calls: create the family member, confirm their insurance, enrol them with a
 * provider (POST /member/app/family/member, .../{id}/confirm/info, .../{id}/set/provider), and
 * read one back for revise mode (GET /member/app/family/member/{id}).
 */
import { useMutation, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import type { FamilyMember, Relation } from '@/lib/member';
import { eligibilityKeys } from './keys';

export interface FamilyMemberRequest {
  subscriberRelation: Relation;
  firstName: string;
  lastName: string;
  dob: string;
  gender: string;
  memberId: string;
  planId: string;
  payerId: string;
  groupId: string;
  companyName: string | null;
  email: string;
  phone: string;
  useMyContact: boolean;
}

/**
 * The answer of a family member's confirm/info: always 200. When not eligible, `code` tells why
 * (`eligibility_not_verified`, `not_eligible_on_plan`, `eligibility_unavailable` with
 * `eligibility.err.chcDown`, or `member_exists`) and `message` is the server's text.
 */
export interface FamilyConfirmResponse {
  id?: number;
  eligible: boolean | number;
  code?: string | null;
  message?: string | null;
  pediatric?: { covered?: boolean | number | null } | null;
  eligibility?: { code?: number; status?: string | null; err?: { chcDown?: boolean } | null } | null;
}

export function createFamilyMember(body: FamilyMemberRequest): Promise<{ id: number }> {
  return apiRequest<{ id: number }>('/member/app/family/member', { method: 'POST', body });
}

export function confirmFamilyMember({ id, body }: { id: number; body: FamilyMemberRequest }): Promise<FamilyConfirmResponse> {
  return apiRequest<FamilyConfirmResponse>(`/member/app/family/member/${id}/confirm/info`, { method: 'POST', body });
}

export function setFamilyProvider({ id, providerId, locationId }: { id: number; providerId: number; locationId: number }): Promise<unknown> {
  return apiRequest<unknown>(`/member/app/family/member/${id}/set/provider`, { method: 'POST', body: { providerId, locationId } });
}

/** GET /member/app/family/member/{id}: the stored family member that revise mode prefills. */
export function getFamilyEntry(id: number, signal?: AbortSignal): Promise<FamilyMember> {
  return apiRequest<FamilyMember>(`/member/app/family/member/${id}`, { signal });
}

export function useFamilyEntry(id: number | null) {
  return useQuery({ queryKey: eligibilityKeys.familyMember(id ?? 0), queryFn: ({ signal }) => getFamilyEntry(id ?? 0, signal), enabled: id !== null && id > 0, staleTime: 0 });
}

export function useCreateFamilyMember() {
  return useMutation({ mutationFn: createFamilyMember });
}

export function useConfirmFamilyMember() {
  return useMutation({ mutationFn: confirmFamilyMember });
}

export function useSetFamilyProvider() {
  return useMutation({ mutationFn: setFamilyProvider });
}
