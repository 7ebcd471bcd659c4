import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { Navigate, Outlet, type RouteObject } from 'react-router';
import { AppShell } from '@/components/layouts/app-shell';
import type { RouteMeta } from '@/components/layouts/route-meta';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { lazyNamed } from '@/lib/lazy';
import { MarketplaceRoute } from './routes/marketplace';
import { NotFoundRoute } from './routes/not-found';
import { RouteErrorBoundary } from './routes/route-error';
import { NotForProviders, RequireAuth } from './routes/require-auth';
import { WelcomeRoute } from './routes/welcome';

// Detail routes load on demand, keeping the first download small.
const ClinicProfileRoute = lazy(() => import('./routes/clinic-profile'));
const ClinicianProfileRoute = lazy(() => import('./routes/clinician-profile'));
const VendorProfileRoute = lazy(() => import('./routes/vendor-profile'));
const SolutionDetailsRoute = lazy(() => import('./routes/solution-details'));
const CategoryListingRoute = lazy(() => import('./routes/category-listing'));

// The avatar menu (and the account code behind it) only downloads once a member header shows.
const MemberMenuSlot = lazyNamed(() => import('./routes/member-menu'), 'MemberMenuSlot');

const auth = () => import('./routes/auth');
const LoginRoute = lazyNamed(auth, 'LoginRoute');
const RegisterRoute = lazyNamed(auth, 'RegisterRoute');
const VerifyAccountRoute = lazyNamed(auth, 'VerifyAccountRoute');
const ForgotPasswordRoute = lazyNamed(auth, 'ForgotPasswordRoute');
const ExpiredRoute = lazyNamed(auth, 'ExpiredRoute');
const ResetPasswordRoute = lazyNamed(auth, 'ResetPasswordRoute');
const AuthIndexRoute = lazyNamed(auth, 'AuthIndexRoute');
const AuthAlertRoute = lazyNamed(auth, 'AuthAlertRoute');
const ConfirmEmailRoute = lazyNamed(auth, 'ConfirmEmailRoute');
const AuthChangePasswordRoute = lazyNamed(auth, 'AuthChangePasswordRoute');
const PersonalInfoRoute = lazyNamed(auth, 'PersonalInfoRoute');
const AccountConfirmedRoute = lazyNamed(auth, 'AccountConfirmedRoute');

const eligibility = () => import('./routes/eligibility');
const ConfirmPlanInformationRoute = lazyNamed(eligibility, 'ConfirmPlanInformationRoute');
const ConfirmInfoRoute = lazyNamed(eligibility, 'ConfirmInfoRoute');
const AddFamilyMemberRoute = lazyNamed(eligibility, 'AddFamilyMemberRoute');

const providerPortal = () => import('./routes/provider-portal');
const ProviderSolutionsRoute = lazyNamed(providerPortal, 'ProviderSolutionsRoute');
const ProviderSolutionDetailsRoute = lazyNamed(providerPortal, 'ProviderSolutionDetailsRoute');
const ProviderRatesRoute = lazyNamed(providerPortal, 'ProviderRatesRoute');
const ProviderSettingsRoute = lazyNamed(providerPortal, 'ProviderSettingsRoute');
const ParticipationReviewRoute = lazyNamed(providerPortal, 'ParticipationReviewRoute');
const ProviderListingsRoute = lazyNamed(() => import('./routes/provider-listings'), 'ProviderListingsRoute');

const legal = () => import('./routes/legal');
const TermsRoute = lazyNamed(legal, 'TermsRoute');
const PrivacyRoute = lazyNamed(legal, 'PrivacyRoute');
const CookiesRoute = lazyNamed(legal, 'CookiesRoute');

const clinicPanel = () => import('./routes/clinic-panel');
const ProviderMembersRoute = lazyNamed(clinicPanel, 'ProviderMembersRoute');
const ProviderMemberRoute = lazyNamed(clinicPanel, 'ProviderMemberRoute');

const HomeRoute = lazyNamed(() => import('./routes/home'), 'HomeRoute');
const MembershipRoute = lazyNamed(() => import('./routes/membership'), 'MembershipRoute');

const account = () => import('./routes/account');
const AccountDetailsRoute = lazyNamed(account, 'AccountDetailsRoute');
const AccountAlertRoute = lazyNamed(account, 'AccountAlertRoute');
const AccountPersonalRoute = lazyNamed(account, 'AccountPersonalRoute');
const AccountPersonalEditRoute = lazyNamed(account, 'AccountPersonalEditRoute');
const FamilyMembersMenuRoute = lazyNamed(account, 'FamilyMembersMenuRoute');
const FamilyMemberRoute = lazyNamed(account, 'FamilyMemberRoute');
const FamilyMemberAddRoute = lazyNamed(account, 'FamilyMemberAddRoute');
const FamilyMemberEditRoute = lazyNamed(account, 'FamilyMemberEditRoute');
const AccountSettingsRoute = lazyNamed(account, 'AccountSettingsRoute');
const AccountChangePasswordRoute = lazyNamed(account, 'AccountChangePasswordRoute');
const EditSubscriberRoute = lazyNamed(account, 'EditSubscriberRoute');
const EditDependentRoute = lazyNamed(account, 'EditDependentRoute');
const EditContactRoute = lazyNamed(account, 'EditContactRoute');

const findCare = () => import('./routes/find-care');
const FindCareRoute = lazyNamed(findCare, 'FindCareRoute');
const FindCareSearchRoute = lazyNamed(findCare, 'FindCareSearchRoute');
const FindCareFiltersRoute = lazyNamed(findCare, 'FindCareFiltersRoute');
const ContactUsRoute = lazyNamed(findCare, 'ContactUsRoute');

function page(element: ReactNode): ReactNode {
  return <Suspense fallback={<Spinner label="Loading page" />}>{element}</Suspense>;
}

/** `protect`: a member's screen (login needed); `provider`: a DPC provider's screen; `notForProviders`: public, but not a provider's. */
function route(path: string, Component: ComponentType, handle: RouteMeta, options: { protect?: boolean; provider?: boolean; notForProviders?: boolean } = {}): RouteObject {
  let element = <Component />;
  if (options.protect) element = <RequireAuth>{element}</RequireAuth>;
  if (options.provider) element = <RequireAuth kind="provider">{element}</RequireAuth>;
  if (options.notForProviders) element = <NotForProviders>{element}</NotForProviders>;
  return { path, handle, element: page(element) };
}

function redirect(path: string, to: string, name: string): RouteObject {
  return { path, element: <Navigate to={to} replace />, handle: { name } };
}

const protect = { protect: true };
const providerOnly = { provider: true };

/**
 * `pages` inside `shell` (which renders an Outlet), each with an error screen: a page that fails
 * (a lazy chunk missing after a deploy) shows it inside the shell; the shell's own failures get
 * it in place of a blank page.
 */
export function inShell(shell: ReactNode, pages: RouteObject[]): RouteObject[] {
  const pageBoundary = (
    <RouteErrorBoundary>
      <Outlet />
    </RouteErrorBoundary>
  );
  return [{ element: <RouteErrorBoundary>{shell}</RouteErrorBoundary>, children: [{ element: pageBoundary, children: pages }] }];
}

export const routes: RouteObject[] = inShell(
  <AppShell
    memberMenu={
      <Suspense fallback={null}>
        <MemberMenuSlot />
      </Suspense>
    }
  />,
  [
    redirect(paths.root.path, paths.marketplace.path, 'Marketplace'),
    route(paths.welcome.path, WelcomeRoute, { name: 'WelcomePage' }),
    route(paths.terms.path, TermsRoute, { name: 'Terms of Use' }),
    route(paths.privacy.path, PrivacyRoute, { name: 'Privacy Policy' }),
    route(paths.cookies.path, CookiesRoute, { name: 'Cookie Policy' }),
    route(paths.marketplace.path, MarketplaceRoute, { name: 'Marketplace' }, { notForProviders: true }),
    route(paths.categoryListing.path, CategoryListingRoute, { name: 'Solutions' }),
    route(paths.clinicProfile.path, ClinicProfileRoute, { name: 'Provider Details' }, { notForProviders: true }),
    route(paths.clinicianProfile.path, ClinicianProfileRoute, { name: 'Clinician Details' }, { notForProviders: true }),
    route(paths.vendorProfile.path, VendorProfileRoute, { name: 'Vendor Details' }),
    route(paths.solutionDetails.path, SolutionDetailsRoute, { name: 'Solution Details' }),
    route(paths.marketItemDetails.path, SolutionDetailsRoute, { name: 'Solution Details' }),

    // The DPC provider's pages (issue 11); the facilitator's review link is public and bare.
    redirect(paths.providers.path, paths.providerSolutions.path, 'Solutions'),
    route(paths.providerSolutions.path, ProviderSolutionsRoute, { name: 'Solutions' }, providerOnly),
    route(paths.providerSolutionDetails.path, ProviderSolutionDetailsRoute, { name: 'Solution Details' }, providerOnly),
    route(paths.providerRates.path, ProviderRatesRoute, { name: 'Rates' }, providerOnly),
    route(paths.providerSettings.path, ProviderSettingsRoute, { name: 'Settings' }, providerOnly),
    route(paths.providerListings.path, ProviderListingsRoute, { name: 'Listings' }, providerOnly),
    route(paths.providerMembers.path, ProviderMembersRoute, { name: 'Members' }, providerOnly),
    route(paths.providerMember.path, ProviderMemberRoute, { name: 'Member' }, providerOnly),
    route(paths.participationReview.path, ParticipationReviewRoute, { name: 'Participation Review', auth: true }),

    // Sign-in, sign-up and password links: public, without the headers.
    route(paths.login.path, LoginRoute, { name: 'MemberLogin', auth: true }),
    route(paths.register.path, RegisterRoute, { name: 'MemberRegister', auth: true }),
    route(paths.verify.path, VerifyAccountRoute, { name: 'VerifyAccount', auth: true }),
    route(paths.forgotPassword.path, ForgotPasswordRoute, { name: 'MemberForgotPassword', auth: true }),
    route(paths.expired.path, ExpiredRoute, { name: 'Link Expired', auth: true }),
    route(paths.resetPassword.path, ResetPasswordRoute, { name: 'Reset Password', auth: true }),
    route(`${paths.resetPassword.path}/:token`, ResetPasswordRoute, { name: 'Reset Password', auth: true }),

    // Onboarding: they take a token query and work out the member themselves.
    route(paths.confirmPlanInformation.path, ConfirmPlanInformationRoute, { name: 'Confirm Plan Information', onboarding: true }),
    route(paths.confirmInfo.path, ConfirmInfoRoute, { name: 'Confirm Info', onboarding: true }),
    route(paths.addFamilyMember.path, AddFamilyMemberRoute, { name: 'addFamilyMember', onboarding: true }),

    // Root layout group: login needed.
    route(paths.home.path, HomeRoute, { name: 'Home' }, protect),
    route(paths.membership.path, MembershipRoute, { name: 'Membership', hideSidebar: true }, protect),
    route(paths.findCare.path, FindCareRoute, { name: 'FindCare' }, protect),
    route(paths.findCareSearch.path, FindCareSearchRoute, { name: 'FindCareSearch' }, protect),
    route(paths.findCareFilters.path, FindCareFiltersRoute, { name: 'FindCareSearchFilters' }, protect),
    route(paths.contactUs.path, ContactUsRoute, { name: 'Contact Us' }, protect),
    redirect(paths.auth.path, paths.authIndex.path, 'Auth'),
    route(paths.authIndex.path, AuthIndexRoute, { name: 'Auth', auth: true }, protect),
    route(paths.authAlert.path, AuthAlertRoute, { name: 'Alert', auth: true }, protect),
    route(paths.confirmEmailPassword.path, ConfirmEmailRoute, { name: 'Confirm Email', auth: true }, protect),
    route(paths.authChangePassword.path, AuthChangePasswordRoute, { name: 'Change Password', auth: true }, protect),
    route(paths.personalInfo.path, PersonalInfoRoute, { name: 'Personal Info', auth: true }, protect),
    route(paths.accountConfirm.path, AccountConfirmedRoute, { name: 'Account Confirmed', auth: true }, protect),

    // Account group: login needed; /account opens the details.
    redirect(paths.account.path, paths.accountDetails.path, 'Account'),
    route(paths.accountDetails.path, AccountDetailsRoute, { name: 'Account Details' }, protect),
    route(paths.accountAlert.path, AccountAlertRoute, { name: 'Account Alert' }, protect),
    route(paths.accountPersonal.path, AccountPersonalRoute, { name: 'Personal' }, protect),
    route(paths.accountPersonalEdit.path, AccountPersonalEditRoute, { name: 'Edit Personal', hideSidebar: true }, protect),
    redirect(paths.familyMembers.path, paths.familyMembersMenu.path, 'accountFamilyMembers'),
    route(paths.familyMembersMenu.path, FamilyMembersMenuRoute, { name: 'familyMembersMenu' }, protect),
    route(paths.familyMember.path, FamilyMemberRoute, { name: 'Family Member' }, protect),
    route(paths.familyMemberAdd.path, FamilyMemberAddRoute, { name: 'Add Family Member', hideSidebar: true }, protect),
    route(paths.familyMemberEdit.path, FamilyMemberEditRoute, { name: 'Edit Family Member', hideSidebar: true }, protect),
    route(paths.accountSettings.path, AccountSettingsRoute, { name: 'Settings' }, protect),
    route(paths.accountChangePassword.path, AccountChangePasswordRoute, { name: 'Change Password', hideSidebar: true }, protect),
    route(paths.editSubscriber.path, EditSubscriberRoute, { name: 'Edit Subscriber', hideSidebar: true }, protect),
    route(paths.editDependent.path, EditDependentRoute, { name: 'Edit Dependent', hideSidebar: true }, protect),
    route(paths.editContact.path, EditContactRoute, { name: 'Edit Contact', hideSidebar: true }, protect),

    route(paths.notFound.path, NotFoundRoute, { name: 'Page Not Found' }),
    { path: '*', element: <Navigate to={paths.notFound.path} replace />, handle: { name: 'Page Not Found' } },
  ],
);
