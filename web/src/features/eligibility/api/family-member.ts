/**
 * The add-dependent calls: create the family member, confirm their insurance, enrol them with a
 * provider (POST /member/app/family/member, .../{id}/confirm/info, .../{id}/set/provider).
 */
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import type { Relation } from '@/lib/member';

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

export interface FamilyConfirmResponse {
  eligible: boolean | number;
  pediatric?: { covered?: boolean | number | null } | null;
  eligibility?: { code?: number } | null;
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

export function useCreateFamilyMember() {
  return useMutation({ mutationFn: createFamilyMember });
}

export function useConfirmFamilyMember() {
  return useMutation({ mutationFn: confirmFamilyMember });
}

export function useSetFamilyProvider() {
  return useMutation({ mutationFn: setFamilyProvider });
}
