/** The family calls of the account screens (GET list and one, POST, PUT, DELETE /member/app/family/member). */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { memberKeys, type FamilyMember } from '@/lib/member';
import { accountKeys } from './keys';

/** GET /member/app/family/members: the subscriber's family. */
export function getFamilyMembers(signal?: AbortSignal): Promise<FamilyMember[]> {
  return apiRequest<FamilyMember[] | { members?: FamilyMember[]; family?: FamilyMember[] }>('/member/app/family/members', { signal }).then((answer) =>
    Array.isArray(answer) ? answer : (answer?.members ?? answer?.family ?? []),
  );
}

export function familyMembersQueryOptions() {
  return queryOptions({ queryKey: accountKeys.familyMembers(), queryFn: ({ signal }) => getFamilyMembers(signal) });
}

export function useFamilyMembers() {
  return useQuery(familyMembersQueryOptions());
}

/** GET /member/app/family/member/{id}: one family member's details. */
export function getFamilyMember(id: number, signal?: AbortSignal): Promise<FamilyMember> {
  return apiRequest<FamilyMember>(`/member/app/family/member/${id}`, { signal });
}

export function familyMemberQueryOptions(id: number) {
  return queryOptions({ queryKey: accountKeys.familyMember(id), queryFn: ({ signal }) => getFamilyMember(id, signal) });
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

/** PUT /member/app/family/member/{id}. */
export function updateFamilyMember({ id, body }: { id: number; body: Partial<FamilyMemberUpdate> }): Promise<FamilyMember> {
  return apiRequest<FamilyMember>(`/member/app/family/member/${id}`, { method: 'PUT', body });
}

/** POST /member/app/family/member: returns the new member's id. */
export function createFamilyMember(body: Record<string, unknown>): Promise<{ id: number }> {
  return apiRequest<{ id: number }>('/member/app/family/member', { method: 'POST', body });
}

/** DELETE /member/app/family/member/{id}: the answer's message is shown in a dialog. */
export function deleteFamilyMember(id: number): Promise<unknown> {
  return apiRequest<unknown>(`/member/app/family/member/${id}`, { method: 'DELETE' });
}

/** Family changes refresh the list, the member (and the avatar menu) and the edited record. */
function useFamilyInvalidation() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: accountKeys.all });
    void queryClient.invalidateQueries({ queryKey: memberKeys.all });
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
