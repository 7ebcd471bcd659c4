/** Route modules of the sign-in, sign-up and password screens (loaded together, on demand). */
import { AccountConfirmedPage } from '@/features/auth/components/account-confirmed-page';
import { AuthAlertPage } from '@/features/auth/components/auth-alert-page';
import { AuthIndexPage } from '@/features/auth/components/auth-index-page';
import { AuthChangePasswordPage } from '@/features/auth/components/auth-change-password-page';
import { ConfirmEmailPage } from '@/features/auth/components/confirm-email-page';
import { ForgotPasswordPage } from '@/features/auth/components/forgot-password-page';
import { LoginPage } from '@/features/auth/components/login-page';
import { PersonalInfoPage } from '@/features/auth/components/personal-info-page';
import { RegisterPage } from '@/features/auth/components/register-page';
import { ResetPasswordPage } from '@/features/auth/components/reset-password-page';
import { VerifyPage } from '@/features/auth/components/verify-page';

export const LoginRoute = LoginPage;
export const RegisterRoute = RegisterPage;
export const VerifyAccountRoute = VerifyPage;
export const ForgotPasswordRoute = () => <ForgotPasswordPage variant="forgot" />;
export const ExpiredRoute = () => <ForgotPasswordPage variant="expired" />;
export const ResetPasswordRoute = ResetPasswordPage;
export const AuthIndexRoute = AuthIndexPage;
export const AuthAlertRoute = AuthAlertPage;
export const ConfirmEmailRoute = ConfirmEmailPage;
export const AuthChangePasswordRoute = AuthChangePasswordPage;
export const PersonalInfoRoute = PersonalInfoPage;
export const AccountConfirmedRoute = AccountConfirmedPage;
