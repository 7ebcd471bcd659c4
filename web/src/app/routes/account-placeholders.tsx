/**
 * Route components for the accounts area (second spec document). Each is a minimal page named
 * for its route so the routes resolve; the accounts feature replaces them.
 */
import styles from './route-pages.module.css';

function RoutePage({ title }: { title: string }) {
  return (
    <div className={styles.center}>
      <h1>{title}</h1>
    </div>
  );
}

export const LoginRoute = () => <RoutePage title="Login" />;
export const RegisterRoute = () => <RoutePage title="Register" />;
export const VerifyAccountRoute = () => <RoutePage title="Verify your account" />;
export const ForgotPasswordRoute = () => <RoutePage title="Forgot password" />;
export const ExpiredRoute = () => <RoutePage title="Your link has expired" />;
export const ResetPasswordRoute = () => <RoutePage title="Reset password" />;
export const ConfirmPlanInformationRoute = () => <RoutePage title="Confirm plan information" />;
export const ConfirmInfoRoute = () => <RoutePage title="Confirm your information" />;
export const AddFamilyMemberRoute = () => <RoutePage title="Add a family member" />;
export const HomeRoute = () => <RoutePage title="Home" />;
export const MembershipRoute = () => <RoutePage title="Membership" />;
export const AccountDetailsRoute = () => <RoutePage title="Account" />;
export const EditSubscriberRoute = () => <RoutePage title="Edit subscriber" />;
export const EditDependentRoute = () => <RoutePage title="Edit dependent" />;
export const EditContactRoute = () => <RoutePage title="Edit contact" />;
