/** Route modules of the eligibility screens (loaded on demand). */
import { AddFamilyMemberPage } from '@/features/eligibility/components/add-family-member-page';
import { ConfirmInfoPage } from '@/features/eligibility/components/confirm-info-page';
import { ConfirmPlanPage } from '@/features/eligibility/components/confirm-plan-page';

export const ConfirmPlanInformationRoute = ConfirmPlanPage;
export const ConfirmInfoRoute = ConfirmInfoPage;
export const AddFamilyMemberRoute = AddFamilyMemberPage;
