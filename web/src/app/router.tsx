import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { AppShell } from '@/components/layouts/app-shell';
import type { RouteMeta } from '@/components/layouts/route-meta';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import * as accounts from './routes/account-placeholders';
import { MarketplaceRoute } from './routes/marketplace';
import { NotFoundRoute } from './routes/not-found';
import { RequireAuth } from './routes/require-auth';

// Detail routes load on demand, keeping the first download small.
const ClinicProfileRoute = lazy(() => import('./routes/clinic-profile'));
const ClinicianProfileRoute = lazy(() => import('./routes/clinician-profile'));
const VendorProfileRoute = lazy(() => import('./routes/vendor-profile'));
const SolutionDetailsRoute = lazy(() => import('./routes/solution-details'));
const CategoryListingRoute = lazy(() => import('./routes/category-listing'));

function page(element: ReactNode): ReactNode {
  return <Suspense fallback={<Spinner label="Loading page" />}>{element}</Suspense>;
}

function route(path: string, Component: ComponentType, handle: RouteMeta, options: { protect?: boolean } = {}): RouteObject {
  const element = <Component />;
  return { path, handle, element: page(options.protect ? <RequireAuth>{element}</RequireAuth> : element) };
}

export const routes: RouteObject[] = [
  {
    element: <AppShell />,
    children: [
      { path: paths.root.path, element: <Navigate to={paths.marketplace.path} replace />, handle: { name: 'Marketplace' } },
      route(paths.marketplace.path, MarketplaceRoute, { name: 'Marketplace' }),
      route(paths.categoryListing.path, CategoryListingRoute, { name: 'Solutions' }),
      route(paths.clinicProfile.path, ClinicProfileRoute, { name: 'Provider Details' }),
      route(paths.clinicianProfile.path, ClinicianProfileRoute, { name: 'Clinician Details' }),
      route(paths.vendorProfile.path, VendorProfileRoute, { name: 'Vendor Details' }),
      route(paths.solutionDetails.path, SolutionDetailsRoute, { name: 'Solution Details' }),
      route(paths.marketItemDetails.path, SolutionDetailsRoute, { name: 'Solution Details' }),

      route(paths.login.path, accounts.LoginRoute, { name: 'Login', auth: true }),
      route(paths.register.path, accounts.RegisterRoute, { name: 'Register', auth: true }),
      route(paths.verify.path, accounts.VerifyAccountRoute, { name: 'Verify Account', auth: true }),
      route(paths.forgotPassword.path, accounts.ForgotPasswordRoute, { name: 'Forgot Password', auth: true }),
      route(paths.expired.path, accounts.ExpiredRoute, { name: 'Link Expired', auth: true }),
      route(paths.resetPassword.path, accounts.ResetPasswordRoute, { name: 'Reset Password', auth: true }),
      route(`${paths.resetPassword.path}/:token`, accounts.ResetPasswordRoute, { name: 'Reset Password', auth: true }),

      route(paths.confirmPlanInformation.path, accounts.ConfirmPlanInformationRoute, { name: 'Confirm Plan Information', onboarding: true }),
      route(paths.confirmInfo.path, accounts.ConfirmInfoRoute, { name: 'Confirm Info', onboarding: true }),
      route(paths.addFamilyMember.path, accounts.AddFamilyMemberRoute, { name: 'Add Family Member', onboarding: true }),

      route(paths.home.path, accounts.HomeRoute, { name: 'Home' }, { protect: true }),
      route(paths.membership.path, accounts.MembershipRoute, { name: 'Membership', hideSidebar: true }, { protect: true }),
      { path: paths.account.path, element: <Navigate to={paths.accountDetails.path} replace />, handle: { name: 'Account' } },
      route(paths.accountDetails.path, accounts.AccountDetailsRoute, { name: 'Account Details' }, { protect: true }),
      route(paths.editSubscriber.path, accounts.EditSubscriberRoute, { name: 'Edit Subscriber', hideSidebar: true }, { protect: true }),
      route(paths.editDependent.path, accounts.EditDependentRoute, { name: 'Edit Dependent', hideSidebar: true }, { protect: true }),
      route(paths.editContact.path, accounts.EditContactRoute, { name: 'Edit Contact', hideSidebar: true }, { protect: true }),

      route(paths.notFound.path, NotFoundRoute, { name: 'Page Not Found' }),
      { path: '*', element: <Navigate to={paths.notFound.path} replace />, handle: { name: 'Page Not Found' } },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
