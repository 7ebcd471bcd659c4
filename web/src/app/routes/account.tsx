/** Route modules of the account group (loaded together, on demand). */
import { AccountDetailsPage } from '@/features/account/components/account-details-page';
import { AccountAlertPage, AccountPersonalPage, AccountSettingsPage, FamilyMemberDetailPage, FamilyMembersMenuPage } from '@/features/account/components/account-pages';
import { EditContactPage } from '@/features/account/components/edit-contact-page';
import { EditDependentPage } from '@/features/account/components/edit-dependent-page';
import { EditSubscriberPage } from '@/features/account/components/edit-subscriber-page';
import { FamilyAddPage } from '@/features/account/components/family-add-page';
import { FamilyEditPage } from '@/features/account/components/family-edit-page';
import { PersonalEditPage } from '@/features/account/components/personal-edit-page';

export const AccountDetailsRoute = AccountDetailsPage;
export const AccountAlertRoute = AccountAlertPage;
export const AccountPersonalRoute = AccountPersonalPage;
export const AccountPersonalEditRoute = PersonalEditPage;
export const FamilyMembersMenuRoute = FamilyMembersMenuPage;
export const FamilyMemberRoute = FamilyMemberDetailPage;
export const FamilyMemberAddRoute = FamilyAddPage;
export const FamilyMemberEditRoute = FamilyEditPage;
export const AccountSettingsRoute = () => <AccountSettingsPage />;
export const AccountChangePasswordRoute = () => <AccountSettingsPage form="password" />;
export const EditSubscriberRoute = EditSubscriberPage;
export const EditDependentRoute = EditDependentPage;
export const EditContactRoute = EditContactPage;
