//! Every error the API answers: its stable snake_case code, its HTTP status and, where the
//! spec (or our design) fixes one, its text. [`crate::error::ApiError`] is built from these
//! entries, `openapi.json` documents the same codes (a test checks both ways), and tests
//! assert against the table rather than re-typing codes and texts.
//!
//! One code may have several entries: `unauthorized` says either "log in" or "invalid token".
//! An entry without a text is answered with a message written where the error happens (a
//! search parameter, a field's validation, a missing id).

use axum::http::StatusCode;

/// One error the API can answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ErrorCode {
    pub code: &'static str,
    pub status: StatusCode,
    pub text: Option<&'static str>,
}

macro_rules! error_codes {
    ($($(#[$doc:meta])* $name:ident = ($code:literal, $status:ident $(, $text:literal)?);)*) => {
        $(
            $(#[$doc])*
            pub const $name: ErrorCode = ErrorCode {
                code: $code,
                status: StatusCode::$status,
                text: error_codes!(@text $($text)?),
            };
        )*
        /// The whole table, in the order above.
        pub const ALL: &[ErrorCode] = &[$($name),*];
    };
    (@text $text:literal) => { Some($text) };
    (@text) => { None };
}

error_codes! {
    // ---- Any request ----------------------------------------------------------------------
    PLEASE_LOG_IN = ("unauthorized", UNAUTHORIZED, "Please log in to continue");
    INVALID_ACCESS_TOKEN = ("unauthorized", UNAUTHORIZED, "Invalid access token");
    /// More than one `x-access-token` header: refused rather than guessing which is meant.
    DUPLICATE_TOKEN = ("duplicate_access_token", BAD_REQUEST, "Send one x-access-token header, not several.");
    /// Valid credentials, but not for this resource.
    FORBIDDEN = ("forbidden", FORBIDDEN);
    /// The thing named does not exist; the message names it.
    NOT_FOUND = ("not_found", NOT_FOUND);
    NO_PLACE = ("not_found", NOT_FOUND, "No place matches that address");
    PAYLOAD_TOO_LARGE = ("payload_too_large", PAYLOAD_TOO_LARGE, "the request body is too large");
    TOO_MANY_REQUESTS = ("too_many_requests", TOO_MANY_REQUESTS, "Too many attempts. Please wait a few minutes and try again.");
    /// The search index is not loaded yet.
    UNAVAILABLE = ("unavailable", SERVICE_UNAVAILABLE, "the marketplace is starting up, please retry in a moment");
    /// Anything else: logged, never shown.
    INTERNAL = ("internal", INTERNAL_SERVER_ERROR, "Oops. Something went wrong");
    INVALID_BODY = ("invalid_body", BAD_REQUEST);
    UNSUPPORTED_MEDIA_TYPE = ("unsupported_media_type", BAD_REQUEST, "send the body as application/json");
    INVALID_QUERY = ("invalid_query", BAD_REQUEST);
    INVALID_PATH = ("invalid_path", BAD_REQUEST);
    INVALID_PARAMETER = ("invalid_parameter", BAD_REQUEST);
    /// A form value of the wrong type (`{message, code, field}`).
    INVALID_FIELD = ("invalid_field", BAD_REQUEST);
    /// A NUL character in a JSON string or key, a query parameter or the path (`field` names it).
    INVALID_CHARACTER = ("invalid_character", BAD_REQUEST);
    /// The path exists but not with this method.
    METHOD_NOT_ALLOWED = ("method_not_allowed", METHOD_NOT_ALLOWED, "this method is not allowed on this path");
    /// The request line is longer than the server reads.
    URI_TOO_LONG = ("uri_too_long", URI_TOO_LONG, "the request URI is too long");
    /// The request did not complete in time (a slow body or handler).
    REQUEST_TIMEOUT = ("request_timeout", REQUEST_TIMEOUT, "the request took too long");
    /// PostgreSQL cannot be reached (or no connection came free in time).
    DATABASE_UNAVAILABLE = ("database_unavailable", SERVICE_UNAVAILABLE, "the service is temporarily unavailable, please retry in a moment");

    // ---- Search ---------------------------------------------------------------------------
    NO_ORIGIN = ("no_origin", BAD_REQUEST);
    UNKNOWN_ZIP_CODE = ("unknown_zip_code", BAD_REQUEST);
    INVALID_FILTER = ("invalid_filter", BAD_REQUEST);
    INVALID_BOUNDS = ("invalid_bounds", BAD_REQUEST);
    PROVIDER_NOT_FOUND = ("not_found", NOT_FOUND, "Provider not found");
    VENDOR_NOT_FOUND = ("not_found", NOT_FOUND, "Vendor not found");
    SOLUTION_NOT_FOUND = ("not_found", NOT_FOUND, "Solution not found");

    // ---- Form fields (`domain::accounts::ValidationError`; texts are its `Display`) ----------
    REQUIRED = ("required", BAD_REQUEST);
    INVALID_EMAIL = ("invalid_email", BAD_REQUEST);
    WEAK_PASSWORD = ("weak_password", BAD_REQUEST);
    PASSWORD_MISMATCH = ("password_mismatch", BAD_REQUEST);
    PASSWORD_REUSED = ("password_reused", BAD_REQUEST);
    INVALID_PHONE = ("invalid_phone", BAD_REQUEST);
    INVALID_DATE = ("invalid_date", BAD_REQUEST);
    INVALID_GENDER = ("invalid_gender", BAD_REQUEST);
    INVALID_RELATION = ("invalid_relation", BAD_REQUEST);
    SPECIAL_CHARACTERS = ("special_characters", BAD_REQUEST);
    INVALID_ZIP_CODE = ("invalid_zip_code", BAD_REQUEST);
    TOO_LONG = ("too_long", BAD_REQUEST);

    // ---- Accounts -------------------------------------------------------------------------
    UNKNOWN_EMPLOYER = ("unknown_employer", BAD_REQUEST, "Unknown employer");
    UNKNOWN_PROVIDER = ("unknown_provider", BAD_REQUEST, "Provider not found");
    /// Sign-up agreed to a version of the Terms of Use other than the one served now.
    TERMS_CHANGED = ("terms_changed", CONFLICT, "The Terms of Use have changed since this page opened. Please read them again.");
    EMAIL_TAKEN = ("email_taken", BAD_REQUEST, "This e-mail is already registered.");
    SAME_EMAIL = ("same_email", BAD_REQUEST, "This is already your login e-mail.");
    EMAIL_CHANGE_NEEDS_VERIFICATION = ("email_change_needs_verification", BAD_REQUEST, "To change your login e-mail, use Settings: we send a link to confirm the new address.");
    INVALID_CREDENTIALS = ("invalid_credentials", UNAUTHORIZED, "Invalid email and / or password");
    EMAIL_NOT_VERIFIED = ("email_not_verified", FORBIDDEN, "Email verification still pending.");
    MAGIC_LINK_EXPIRED = ("magic_link_expired", FORBIDDEN, "Your magic link has expired");
    /// A link that is unknown, used, revoked or expired, when it is submitted.
    LINK_EXPIRED = ("link_expired", FORBIDDEN, "Oops, it seems your link has expired.");
    /// The same, when the link is only being validated (the set-password page opening).
    LINK_NOT_VALID = ("link_expired", UNAUTHORIZED, "Oops, it seems your link has expired.");
    PASSWORD_ALREADY_SET = ("password_already_set", FORBIDDEN, "Your password is already set. Use Change Password instead.");
    INVALID_PASSWORD = ("invalid_password", BAD_REQUEST, "Invalid password");
    /// An account call (login email, password) under a token switched to a family member.
    SWITCHED_ACCOUNT = ("switched_account", FORBIDDEN, "Switch back to your own account to change a login e-mail or password: a family member's e-mail is never a login.");
    /// A switch to another family member under a token already switched to one.
    SWITCH_BACK_FIRST = ("switched_account", FORBIDDEN, "Switch back to your own account before switching to another family member.");
    /// Changing the login e-mail asks for the current password; the account has none yet.
    PASSWORD_NOT_SET = ("password_not_set", FORBIDDEN, "Set a password first: changing your login e-mail asks for your current password.");
    NO_MEMBER = ("not_found", NOT_FOUND, "No member found");
    PLAN_NOT_FOUND = ("plan_not_found", NOT_FOUND, "We could not find a plan with this ID");

    // ---- Sessions (`reason` in the body says why; docs/accounts-contract.md, "Sessions") ----
    SESSION_SIGNED_OUT = ("session_ended", UNAUTHORIZED, "You signed out of this session. Please log in again.");
    SESSION_ENDED_ELSEWHERE = ("session_ended", UNAUTHORIZED, "This session was signed out from another device. Please log in again.");
    SESSION_PASSWORD_CHANGED = ("session_ended", UNAUTHORIZED, "Your password was changed, so this session was signed out. Please log in again.");
    SESSION_IDLE = ("session_ended", UNAUTHORIZED, "You were signed out after {limit} without activity. Please log in again.");
    SESSION_EXPIRED = ("session_ended", UNAUTHORIZED, "You were signed out: a session lasts at most {limit} after you log in. Please log in again.");
    SESSION_ACCOUNT_DELETED = ("session_ended", UNAUTHORIZED, "This account no longer exists.");
    SESSION_FAMILY_CHANGED = ("session_ended", UNAUTHORIZED, "You no longer manage this family member's account. Switch back to your own account.");
    SESSION_ACCOUNT_CHANGED = ("session_ended", UNAUTHORIZED, "Your account changed, so this session was signed out. Please log in again.");
    SESSION_SWITCHED_BACK = ("session_ended", UNAUTHORIZED, "You switched back to your own account; this family member's session is closed.");
    /// DELETE /member/app/sessions/{id} for a session that is not an open one of the caller's.
    SESSION_NOT_FOUND = ("session_not_found", NOT_FOUND, "No open session of yours has this id.");

    // ---- Eligibility ----------------------------------------------------------------------
    ELIGIBILITY_NOT_VERIFIED = ("eligibility_not_verified", BAD_REQUEST, "We were unable to verify eligibility. Please enter subscriber information and resubmit.");
    NOT_ELIGIBLE_ON_PLAN = ("not_eligible_on_plan", UNAUTHORIZED, "Oops! It seems that you are not eligible on this plan.");
    ELIGIBILITY_UNAVAILABLE = ("eligibility_unavailable", INTERNAL_SERVER_ERROR, "We could not reach the eligibility service. Your information is saved; please try again later.");
    MEMBER_EXISTS = ("member_exists", BAD_REQUEST, "Member already exists");

    // ---- Family ---------------------------------------------------------------------------
    ONLY_PRIMARY = ("forbidden", FORBIDDEN, "Only the primary account holder can manage family members");
    NOT_YOURS = ("forbidden", FORBIDDEN, "You may only act on your own family members");
    NO_DEPENDENT = ("not_found", NOT_FOUND, "No Dependent ID was found");
    ALREADY_IN_FAMILY = ("member_exists", CONFLICT, "This family member already exists in your account.");

    // ---- Enrolment (`domain::enrolment::Refusal`; texts are its `Display`) ------------------
    EMPLOYER_INACTIVE = ("employer_inactive", FORBIDDEN);
    ACTIVE_MEMBERSHIP = ("active_membership", CONFLICT);
    NOT_A_LOCATION = ("not_a_location", BAD_REQUEST);
    CHANGE_NEEDS_CONFIRMATION = ("change_needs_confirmation", CONFLICT);
    ALREADY_ENROLLED = ("already_enrolled", CONFLICT);
    NOT_ACCEPTING = ("not_accepting", CONFLICT);
    PEDIATRIC_NOT_OFFERED = ("pediatric_not_offered", CONFLICT);
    PEDIATRIC_AGE = ("pediatric_age", CONFLICT);

    // ---- Favourites and the waitlist ------------------------------------------------------
    INVALID_ENTITY = ("invalid_entity", BAD_REQUEST);
    INVALID_ID = ("invalid_id", BAD_REQUEST);
    NO_EMAIL = ("no_email", BAD_REQUEST);
    CONSENT_REQUIRED = ("consent_required", BAD_REQUEST, "'I agree to be contacted by the provider' must be ticked");
    LOCATION_REQUIRED = ("location_required", BAD_REQUEST, "Choose a clinic, or search an area to be told about");

    // ---- The provider side (docs/provider-contract.md) -------------------------------------
    /// A member's token on a call for provider accounts.
    PROVIDER_ONLY = ("provider_only", FORBIDDEN, "This page is for DPC provider accounts. Please sign in with your provider login.");
    /// A provider account's token on a member-only call.
    MEMBER_ONLY = ("member_only", FORBIDDEN, "This page is for members. Provider accounts manage solutions at /dpc-providers/solutions.");
    INVALID_RATE = ("invalid_rate", BAD_REQUEST, "Please select rate first");
    CONTRACT_NOT_AGREED = ("contract_not_agreed", BAD_REQUEST, "Please read the contract and tick the box to agree before participating.");
    CONTRACT_CHANGED = ("contract_changed", CONFLICT, "The contract changed while you were reading it. Please read the new version and agree again.");
    ALREADY_PARTICIPATING = ("already_participating", CONFLICT, "Your organisation already participates in this solution (or its request awaits approval).");
    NOT_PARTICIPATING = ("not_participating", NOT_FOUND, "Your organisation does not participate in this solution.");
    NOTHING_TO_CHANGE = ("nothing_to_change", BAD_REQUEST, "Nothing to change: send a different rate, or contracted false to stop participating.");
    REVIEW_LINK_EXPIRED = ("review_link_expired", GONE, "This approval link has expired or was already used.");
    /// A transition the participation's status does not allow; the message says which.
    PARTICIPATION_STATE = ("participation_state", CONFLICT);

    // ---- Listings kept by the clinics (docs/listings-contract.md; `field` names the field) ----
    /// A location or clinician that is not one of the caller's organisation's (or nobody's).
    LISTING_NOT_FOUND = ("listing_not_found", NOT_FOUND, "No such listing in your organisation");
    /// A field the call does not take.
    UNKNOWN_FIELD = ("unknown_field", BAD_REQUEST);
    /// A value of the wrong JSON type.
    INVALID_TYPE = ("invalid_type", BAD_REQUEST);
    /// A code outside its list (language, accessibility, service, time zone).
    UNKNOWN_CODE = ("unknown_code", BAD_REQUEST);
    /// A number or time outside its range.
    OUT_OF_RANGE = ("out_of_range", BAD_REQUEST);
    /// Any other refused listing value; the message says why.
    INVALID_VALUE = ("invalid_value", BAD_REQUEST);
    LISTING_NOTHING_TO_CHANGE = ("nothing_to_change", BAD_REQUEST, "Send at least one field to change");
    /// Accepting new patients asked for while the panel is full; the message gives the numbers.
    PANEL_FULL = ("panel_full", CONFLICT);
    // ---- The clinic panel (docs/clinic-panel-contract.md) ----------------------------------
    /// A member without a membership at the provider's organisation, whatever the reason.
    PANEL_MEMBER_NOT_FOUND = ("not_found", NOT_FOUND, "This member is not enrolled with your organisation");
    /// A decision the membership's state no longer allows; the message says what happened.
    MEMBERSHIP_STATE = ("membership_state", CONFLICT);
}

impl ErrorCode {
    /// The entry's text; entries without one are answered with a message of their own.
    pub fn text(self) -> &'static str {
        self.text.unwrap_or_default()
    }

    /// The first entry with this code (its usual status).
    pub fn find(code: &str) -> Option<Self> {
        ALL.iter().copied().find(|entry| entry.code == code)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_field_validation_code_is_in_the_table() {
        use domain::accounts::ValidationError as E;
        for error in [
            E::Required,
            E::EmailInvalid,
            E::PasswordWeak,
            E::PasswordMismatch,
            E::PasswordReused,
            E::PhoneInvalid,
            E::DateInvalid,
            E::GenderInvalid,
            E::RelationInvalid,
            E::SpecialCharacters,
            E::ZipInvalid,
            E::TooLong(100),
        ] {
            assert!(ErrorCode::find(error.code()).is_some(), "{}", error.code());
        }
    }

    #[test]
    fn codes_are_snake_case() {
        for entry in ALL {
            assert!(
                entry.code.bytes().all(|byte| byte.is_ascii_lowercase() || byte == b'_'),
                "{entry:?} is not snake_case"
            );
        }
    }
}
