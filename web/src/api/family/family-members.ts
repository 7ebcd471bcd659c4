/**
 * The family calls: the list, one member, add, confirm their insurance, edit and remove
 * (GET /member/app/family/members, GET, POST, PUT, DELETE /member/app/family/member, and
 * .../{id}/confirm/info). Enrolling one with a clinic is the set-provider call.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InsuredPerson } from '@/api/eligibility/types';
import { queryKeys } from '@/api/query-keys';
import { apiRequest } from '@/lib/api-client';
import { actingSubscriberId } from '@/lib/session';
import type { FamilyMember } from '@/lib/member';
import type { EligibilityCheck } from '@/api/account/personal-info';

/** GET /member/app/family/members: the subscriber's family. */
export function getFamilyMembers(signal?: AbortSignal): Promise<FamilyMember[]> {
  return apiRequest<FamilyMember[] | { members?: FamilyMember[]; family?: FamilyMember[] }>('/member/app/family/members', { signal }).then((answer) =>
    Array.isArray(answer) ? answer : (answer?.members ?? answer?.family ?? []),
  );
}

export function familyMembersQueryOptions() {
  return queryOptions({ queryKey: queryKeys.family.list(), queryFn: ({ signal }) => getFamilyMembers(signal) });
}

/**
 * The family list, asked only by the subscriber's own session: in a family member's account (a
 * token acting for the subscriber) the server refuses family management with a 403.
 */
export function useFamilyMembers() {
  return useQuery({ ...familyMembersQueryOptions(), enabled: actingSubscriberId() === null });
}

/** GET /member/app/family/member/{id}: one family member's details. */
export function getFamilyMember(id: number, signal?: AbortSignal): Promise<FamilyMember> {
  return apiRequest<FamilyMember>(`/member/app/family/member/${id}`, { signal });
}

/** Always read afresh: the edit screens and revise mode prefill from the stored record. */
export function familyMemberQueryOptions(id: number) {
  return queryOptions({ queryKey: queryKeys.family.detail(id), queryFn: ({ signal }) => getFamilyMember(id, signal), staleTime: 0 });
}

export function useFamilyMember(id: number | null) {
  return useQuery({ ...familyMemberQueryOptions(id ?? 0), enabled: id !== null && id > 0 });
}

export interface FamilyMemberUpdate {
  firstName: string;
  lastName: string;
  email: string;
  gender: string;
  zipCode: string;
  phone: string;
  dob: string;
  subscriberRelation?: string;
  memberId?: string;
  planId?: string;
}

/** PUT /member/app/family/member/{id}: the saved entry, with the check a change of identity made at once (null when none). */
export function updateFamilyMember({ id, body }: { id: number; body: Partial<FamilyMemberUpdate> }): Promise<FamilyMember & { eligibilityCheck: EligibilityCheck | null }> {
  return apiRequest(`/member/app/family/member/${id}`, { method: 'PUT', body });
}

/** The add-dependent form as POST /member/app/family/member and its confirm/info take it. */
export interface FamilyMemberRequest extends InsuredPerson {
  companyName: string | null;
  email: string;
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

/** POST /member/app/family/member: returns the new member's id. */
export function createFamilyMember(body: FamilyMemberRequest | Record<string, unknown>): Promise<{ id: number }> {
  return apiRequest<{ id: number }>('/member/app/family/member', { method: 'POST', body });
}

/** POST /member/app/family/member/{id}/confirm/info: checks the family member's insurance. */
export function confirmFamilyMember({ id, body }: { id: number; body: FamilyMemberRequest }): Promise<FamilyConfirmResponse> {
  return apiRequest<FamilyConfirmResponse>(`/member/app/family/member/${id}/confirm/info`, { method: 'POST', body });
}

/** DELETE /member/app/family/member/{id}: the answer's message is shown in a dialog. */
export function deleteFamilyMember(id: number): Promise<unknown> {
  return apiRequest<unknown>(`/member/app/family/member/${id}`, { method: 'DELETE' });
}

/** Family changes refresh the list, the member (and the avatar menu) and the edited record. */
function useFamilyInvalidation() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: queryKeys.family.all });
    void queryClient.invalidateQueries({ queryKey: queryKeys.member.all });
  };
}

export function useUpdateFamilyMember() {
  const invalidate = useFamilyInvalidation();
  return useMutation({ mutationFn: updateFamilyMember, onSuccess: invalidate });
}

export function useCreateFamilyMember() {
  const invalidate = useFamilyInvalidation();
  return useMutation({ mutationFn: createFamilyMember, onSuccess: invalidate });
}

export function useDeleteFamilyMember() {
  return useMutation({ mutationFn: deleteFamilyMember });
}

export function useConfirmFamilyMember() {
  return useMutation({ mutationFn: confirmFamilyMember });
}
