//! Member accounts: the rules a sign-up, a login or an eligibility form must satisfy (the
//! membership state machine is [`crate::membership`]). Messages are the spec's texts (accounts
//! spec, section 5).

use std::fmt;

use chrono::{Datelike, NaiveDate};

use crate::catalogue::{Gender, Relation};

/// Why a value was refused. `Display` gives the text shown to the member.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ValidationError {
    /// A required value is missing or blank.
    #[error("This field is required")]
    Required,
    /// The email is missing or blank.
    #[error("E-mail is required")]
    EmailRequired,
    /// The email does not look like an address.
    #[error("E-mail must be valid")]
    EmailInvalid,
    /// The password is missing or empty.
    #[error("Password is required")]
    PasswordRequired,
    /// The password is too short or lacks a character class.
    #[error("Password does not meet the security requirements")]
    PasswordWeak,
    /// The confirmation differs from the password.
    #[error("Password must match")]
    PasswordMismatch,
    /// The new password equals the current one.
    #[error("For security reasons, your new password cannot be the same as your old one.")]
    PasswordReused,
    /// The phone is not a US number of 10 digits.
    #[error("Phone number must be in a valid format (XXX XXX XXXX)")]
    PhoneInvalid,
    /// The date is not a real YYYY-MM-DD date.
    #[error("Invalid date format")]
    DateInvalid,
    /// A date of birth after today.
    #[error("Date of birth cannot be in the future")]
    DateInFuture,
    /// Gender other than f or m.
    #[error("Gender must be f (female) or m (male)")]
    GenderInvalid,
    /// Relationship other than Self, Spouse or Dependent.
    #[error("Relationship must be Self, Spouse or Dependent")]
    RelationInvalid,
    /// An identifier with characters other than letters, digits and hyphens.
    #[error("Special characters not allowed")]
    SpecialCharacters,
    /// A ZIP code that is not 5 digits (optionally with -4 digits).
    #[error("Zip code must be 5 digits")]
    ZipInvalid,
    /// Longer than the field allows.
    #[error("Too long: at most {0} characters")]
    TooLong(usize),
}

impl ValidationError {
    /// A stable snake_case code for the API's error body.
    pub fn code(self) -> &'static str {
        match self {
            Self::Required | Self::EmailRequired | Self::PasswordRequired => "required",
            Self::EmailInvalid => "invalid_email",
            Self::PasswordWeak => "weak_password",
            Self::PasswordMismatch => "password_mismatch",
            Self::PasswordReused => "password_reused",
            Self::PhoneInvalid => "invalid_phone",
            Self::DateInvalid | Self::DateInFuture => "invalid_date",
            Self::GenderInvalid => "invalid_gender",
            Self::RelationInvalid => "invalid_relation",
            Self::SpecialCharacters => "special_characters",
            Self::ZipInvalid => "invalid_zip_code",
            Self::TooLong(_) => "too_long",
        }
    }
}

/// The longest email accepted (RFC 5321 path limit).
pub const MAX_EMAIL_LENGTH: usize = 254;
/// Passwords are at least this long ("at least 8 characters", the checklist's reading).
pub const MIN_PASSWORD_LENGTH: usize = 8;
/// Passwords longer than this are refused, which bounds the hashing work a request can ask for.
pub const MAX_PASSWORD_LENGTH: usize = 128;
/// Names, company names and similar free text.
pub const MAX_NAME_LENGTH: usize = 100;
/// Member, payer, plan and group identifiers.
pub const MAX_IDENTIFIER_LENGTH: usize = 40;

/// A login email: trimmed, lower-cased, `local@domain.tld`. One rule for every form, the SPA's
/// `isValidEmail` included (both test `email_cases.json`): the local part is ASCII letters,
/// digits and ``!#$%&'*+/=?^_`{|}~-`` in dot-separated runs (64 at most); the domain is two or
/// more labels of letters, digits and inner hyphens, the last with a letter and two or more
/// characters; 254 in all at most. No spaces, quotes, brackets, emoji or accented letters
/// (an internationalised domain is written in its `xn--` form).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Email(String);

/// The longest local part (before the `@`) an address may have.
const MAX_EMAIL_LOCAL_LENGTH: usize = 64;

impl Email {
    pub fn parse(input: &str) -> Result<Self, ValidationError> {
        let email = input.trim().to_lowercase();
        if email.is_empty() {
            return Err(ValidationError::EmailRequired);
        }
        if email.len() > MAX_EMAIL_LENGTH {
            return Err(ValidationError::EmailInvalid);
        }
        let Some((local, domain)) = email.split_once('@') else {
            return Err(ValidationError::EmailInvalid);
        };
        let atom = |c: char| c.is_ascii_alphanumeric() || "!#$%&'*+/=?^_`{|}~-".contains(c);
        let local_ok = local.len() <= MAX_EMAIL_LOCAL_LENGTH
            && local.split('.').all(|run| !run.is_empty() && run.chars().all(atom));
        let label_ok = |label: &str| {
            !label.is_empty()
                && label.len() <= 63
                && !label.starts_with('-')
                && !label.ends_with('-')
                && label.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        };
        let labels: Vec<&str> = domain.split('.').collect();
        let top = labels.last().copied().unwrap_or_default();
        let domain_ok = labels.len() >= 2
            && labels.iter().all(|label| label_ok(label))
            && top.len() >= 2
            && top.chars().any(|c| c.is_ascii_alphabetic());
        if !local_ok || !domain_ok {
            return Err(ValidationError::EmailInvalid);
        }
        Ok(Self(email))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn into_string(self) -> String {
        self.0
    }
}

impl fmt::Display for Email {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A new password that satisfies the policy. Never printed.
#[derive(Clone, PartialEq, Eq)]
pub struct NewPassword(String);

impl NewPassword {
    /// Checks the policy: at least 8 characters (at most 128), an upper-case letter, a
    /// lower-case letter and a character that is neither a letter nor a digit.
    pub fn parse(input: &str) -> Result<Self, ValidationError> {
        if input.is_empty() {
            return Err(ValidationError::PasswordRequired);
        }
        let length = input.chars().count();
        let strong = (MIN_PASSWORD_LENGTH..=MAX_PASSWORD_LENGTH).contains(&length)
            && input.chars().any(char::is_uppercase)
            && input.chars().any(char::is_lowercase)
            && input.chars().any(|c| !c.is_alphanumeric());
        if !strong {
            return Err(ValidationError::PasswordWeak);
        }
        Ok(Self(input.to_owned()))
    }

    /// Parses the password and checks that the confirmation, when one is sent, is equal.
    pub fn parse_confirmed(input: &str, confirmation: Option<&str>) -> Result<Self, ValidationError> {
        let password = Self::parse(input)?;
        match confirmation {
            Some(confirmation) if confirmation != input => Err(ValidationError::PasswordMismatch),
            _ => Ok(password),
        }
    }

    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for NewPassword {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("NewPassword(***)")
    }
}

/// A US phone number in its one stored form, E.164 (`+13035550123`). Accepts what the spec's
/// pattern allows: an optional `+1`/`1` country code, then 3-3-4 digits with a space, dot or
/// dash between the groups (or none). The area code and the exchange start with 2-9, as every
/// North American number does, so a number whose digits slid by one (the country code read as
/// part of the area code) is refused rather than stored as someone else's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Phone(String);

impl Phone {
    pub fn parse(input: &str) -> Result<Self, ValidationError> {
        let text = input.trim();
        if text.is_empty() {
            return Err(ValidationError::Required);
        }
        let without_country = text
            .strip_prefix("+1")
            .or_else(|| text.strip_prefix('1').filter(|rest| rest.starts_with([' ', '.', '-'])))
            .map(|rest| rest.trim_start_matches([' ', '.', '-']))
            .unwrap_or(text);
        let mut digits = String::with_capacity(12);
        digits.push_str("+1");
        let mut rest = without_country;
        for (index, size) in [3usize, 3, 4].into_iter().enumerate() {
            let group = rest.get(..size).filter(|d| d.bytes().all(|b| b.is_ascii_digit()));
            let Some(group) = group else {
                return Err(ValidationError::PhoneInvalid);
            };
            // The area code and the exchange never start with 0 or 1.
            if index < 2 && group.starts_with(['0', '1']) {
                return Err(ValidationError::PhoneInvalid);
            }
            digits.push_str(group);
            rest = &rest[size..];
            if index < 2 {
                rest = rest.strip_prefix([' ', '.', '-']).unwrap_or(rest);
            }
        }
        if !rest.is_empty() {
            return Err(ValidationError::PhoneInvalid);
        }
        Ok(Self(digits))
    }

    /// The E.164 form, `+1` and ten digits.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The form the spec shows a phone in, `XXX XXX XXXX`.
    pub fn displayed(&self) -> String {
        let digits = &self.0[2..];
        format!("{} {} {}", &digits[..3], &digits[3..6], &digits[6..])
    }
}

/// A clinic's phone as every screen shows it (`XXX XXX XXXX`), whatever form it was stored in
/// (seeded catalogues write `303-555-0142`); text that is not a US number is shown as it is.
pub fn displayed_phone(stored: &str) -> String {
    Phone::parse(stored).map_or_else(|_| stored.to_owned(), |phone| phone.displayed())
}

/// Parses a calendar date sent as `YYYY-MM-DD` (a full ISO timestamp is cut to its date).
pub fn parse_date(input: &str) -> Result<NaiveDate, ValidationError> {
    let text = input.trim();
    if text.is_empty() {
        return Err(ValidationError::Required);
    }
    let date_part = match text.split_once('T') {
        Some((date, _)) if date.len() == 10 => date,
        _ => text,
    };
    let shape_ok = date_part.len() == 10
        && date_part.bytes().enumerate().all(|(i, b)| {
            if i == 4 || i == 7 {
                b == b'-'
            } else {
                b.is_ascii_digit()
            }
        });
    if !shape_ok {
        return Err(ValidationError::DateInvalid);
    }
    NaiveDate::parse_from_str(date_part, "%Y-%m-%d").map_err(|_| ValidationError::DateInvalid)
}

/// A date of birth: a real date, not after `today`, and not before 1900.
pub fn parse_date_of_birth(input: &str, today: NaiveDate) -> Result<NaiveDate, ValidationError> {
    let date = parse_date(input)?;
    if date > today {
        return Err(ValidationError::DateInFuture);
    }
    if date.year() < 1900 {
        return Err(ValidationError::DateInvalid);
    }
    Ok(date)
}

/// A member's gender as the forms send it: `f` or `m` (upper case accepted).
pub fn parse_gender(input: &str) -> Result<Gender, ValidationError> {
    if input.trim().is_empty() {
        return Err(ValidationError::Required);
    }
    Gender::parse(input).ok_or(ValidationError::GenderInvalid)
}

/// How member records spell a gender: `f` or `m`.
pub fn member_gender(gender: Gender) -> &'static str {
    match gender {
        Gender::F => "f",
        Gender::M => "m",
    }
}

/// Relationship to the subscriber: `Self`, `Spouse` or `Dependent`.
pub fn parse_relation(input: &str) -> Result<Relation, ValidationError> {
    if input.trim().is_empty() {
        return Err(ValidationError::Required);
    }
    Relation::parse(input.trim()).ok_or(ValidationError::RelationInvalid)
}

/// A member id (or subscriber member id, payer, plan or group id): letters, digits and hyphens.
pub fn parse_identifier(input: &str) -> Result<String, ValidationError> {
    let text = input.trim();
    if text.is_empty() {
        return Err(ValidationError::Required);
    }
    if text.chars().count() > MAX_IDENTIFIER_LENGTH {
        return Err(ValidationError::TooLong(MAX_IDENTIFIER_LENGTH));
    }
    if !text.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
        return Err(ValidationError::SpecialCharacters);
    }
    Ok(text.to_owned())
}

/// A required person or company name: trimmed, at most 100 characters, no control characters.
/// Any other character is kept as typed (apostrophes, accents, quotes).
pub fn parse_name(input: &str) -> Result<String, ValidationError> {
    let text = input.trim();
    if text.is_empty() {
        return Err(ValidationError::Required);
    }
    if text.chars().count() > MAX_NAME_LENGTH {
        return Err(ValidationError::TooLong(MAX_NAME_LENGTH));
    }
    if text.chars().any(char::is_control) {
        return Err(ValidationError::SpecialCharacters);
    }
    Ok(text.to_owned())
}

/// A home ZIP code, kept as its five digits.
pub fn parse_zip_code(input: &str) -> Result<String, ValidationError> {
    crate::zip::ZipCode::parse(input)
        .map(|zip| zip.as_str().to_owned())
        .ok_or(ValidationError::ZipInvalid)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(text: &str) -> NaiveDate {
        NaiveDate::parse_from_str(text, "%Y-%m-%d").unwrap()
    }

    #[test]
    fn emails_are_trimmed_and_lower_cased() {
        assert_eq!(
            Email::parse("  Jane.Doe@Example.COM ").unwrap().as_str(),
            "jane.doe@example.com"
        );
        assert_eq!(
            Email::parse("a+tag@sub.example.org").unwrap().as_str(),
            "a+tag@sub.example.org"
        );
        assert_eq!(
            Email::parse("o'brien@example.ie").unwrap().as_str(),
            "o'brien@example.ie"
        );
    }

    /// The cases the SPA's isValidEmail is tested with too (web/src/lib/format.test.ts).
    #[test]
    fn emails_follow_the_one_rule_the_web_app_shares() {
        let cases: serde_json::Value = serde_json::from_str(include_str!("email_cases.json")).unwrap();
        for valid in cases["valid"].as_array().unwrap() {
            let valid = valid.as_str().unwrap();
            assert!(Email::parse(valid).is_ok(), "{valid} is an address");
        }
        for invalid in cases["invalid"].as_array().unwrap() {
            let invalid = invalid.as_str().unwrap();
            assert_eq!(
                Email::parse(invalid),
                Err(ValidationError::EmailInvalid),
                "{invalid} is not an address"
            );
        }
    }

    #[test]
    fn emails_without_the_shape_of_an_address_are_refused() {
        assert_eq!(Email::parse("   "), Err(ValidationError::EmailRequired));
        for bad in [
            "jane",
            "jane@",
            "@example.com",
            "jane@example",
            "jane doe@example.com",
            "jane@exa mple.com",
            "jane@@example.com",
            "jane@example.c",
            ".jane@example.com",
            "jane..doe@example.com",
            "jane@-example.com",
            "jane@example..com",
            "<jane>@example.com",
        ] {
            assert_eq!(Email::parse(bad), Err(ValidationError::EmailInvalid), "{bad}");
        }
        let long = format!("{}@example.com", "a".repeat(250));
        assert_eq!(Email::parse(&long), Err(ValidationError::EmailInvalid));
    }

    #[test]
    fn passwords_need_eight_characters_upper_lower_and_a_special_one() {
        assert!(NewPassword::parse("Secret!1").is_ok());
        assert!(NewPassword::parse("Abcdefg!").is_ok());
        assert!(NewPassword::parse("Ábcdefg ").is_ok(), "a space is a special character");
        assert_eq!(NewPassword::parse(""), Err(ValidationError::PasswordRequired));
        for weak in ["Sec!et1", "secret!12", "SECRET!12", "Secret123", &"Aa!".repeat(50)] {
            assert_eq!(NewPassword::parse(weak), Err(ValidationError::PasswordWeak), "{weak}");
        }
        assert_eq!(
            ValidationError::PasswordWeak.to_string(),
            "Password does not meet the security requirements"
        );
    }

    #[test]
    fn a_confirmation_must_equal_the_password() {
        assert!(NewPassword::parse_confirmed("Secret!12", Some("Secret!12")).is_ok());
        assert!(NewPassword::parse_confirmed("Secret!12", None).is_ok());
        assert_eq!(
            NewPassword::parse_confirmed("Secret!12", Some("Secret!13")),
            Err(ValidationError::PasswordMismatch)
        );
        assert_eq!(ValidationError::PasswordMismatch.to_string(), "Password must match");
        assert_eq!(
            ValidationError::PasswordReused.to_string(),
            "For security reasons, your new password cannot be the same as your old one."
        );
    }

    #[test]
    fn passwords_never_print() {
        let password = NewPassword::parse("Secret!12").unwrap();
        assert_eq!(format!("{password:?}"), "NewPassword(***)");
    }

    #[test]
    fn phones_are_us_numbers_stored_in_e164() {
        for good in [
            "303 555 0123",
            "303-555-0123",
            "303.555.0123",
            "3035550123",
            "+1 303 555 0123",
            "+13035550123",
            "1-303-555-0123",
            "1 303 555 0123",
            " 303 555-0123 ",
        ] {
            assert_eq!(Phone::parse(good).unwrap().as_str(), "+13035550123", "{good}");
        }
        for bad in [
            "303 555 012",
            "303 555 01234",
            "(303) 555 0123",
            "303_555_0123",
            "phone",
            "303  555 0123",
            // What the old mask made of "+1 303 555 0123": an area code cannot start with 1.
            "130 355 5012",
            "013 555 0123",
            "303 055 0123",
            "303 155 0123",
            "+1 130 355 5012",
            "+2 303 555 0123",
        ] {
            assert_eq!(Phone::parse(bad), Err(ValidationError::PhoneInvalid), "{bad}");
        }
        assert_eq!(Phone::parse(""), Err(ValidationError::Required));
        assert_eq!(
            ValidationError::PhoneInvalid.to_string(),
            "Phone number must be in a valid format (XXX XXX XXXX)"
        );
    }

    #[test]
    fn a_clinic_phone_shows_in_the_spec_s_form_whatever_it_was_stored_in() {
        for stored in ["303-555-0142", "303.555.0142", "+13035550142", "303 555 0142"] {
            assert_eq!(displayed_phone(stored), "303 555 0142", "{stored}");
        }
        assert_eq!(displayed_phone(""), "");
        assert_eq!(displayed_phone("ask at the desk"), "ask at the desk");
    }

    #[test]
    fn dates_of_birth_are_real_past_dates() {
        let today = day("2026-11-21");
        assert_eq!(parse_date_of_birth("1985-04-12", today).unwrap(), day("1985-04-12"));
        assert_eq!(
            parse_date_of_birth("1985-04-12T00:00:00.000Z", today).unwrap(),
            day("1985-04-12")
        );
        assert_eq!(parse_date_of_birth("2026-11-21", today).unwrap(), today);
        assert_eq!(
            parse_date_of_birth("2026-11-22", today),
            Err(ValidationError::DateInFuture)
        );
        for bad in [
            "1985-02-30",
            "85-04-12",
            "04/12/1985",
            "1985-4-12",
            "1985-13-01",
            "abcd-ef-gh",
            "1850-01-01",
        ] {
            assert_eq!(
                parse_date_of_birth(bad, today),
                Err(ValidationError::DateInvalid),
                "{bad}"
            );
        }
        assert_eq!(parse_date_of_birth("2024-02-29", today).unwrap(), day("2024-02-29"));
        assert_eq!(
            parse_date_of_birth("2023-02-29", today),
            Err(ValidationError::DateInvalid)
        );
        assert_eq!(parse_date_of_birth(" ", today), Err(ValidationError::Required));
    }

    #[test]
    fn gender_is_f_or_m_and_relation_is_one_of_three() {
        assert_eq!(member_gender(parse_gender("f").unwrap()), "f");
        assert_eq!(member_gender(parse_gender("M").unwrap()), "m");
        assert_eq!(parse_gender("x"), Err(ValidationError::GenderInvalid));
        assert_eq!(parse_relation("Self").unwrap(), Relation::SelfSubscriber);
        assert_eq!(parse_relation("Dependent").unwrap(), Relation::Dependent);
        assert_eq!(parse_relation("self"), Err(ValidationError::RelationInvalid));
        assert_eq!(parse_relation(""), Err(ValidationError::Required));
    }

    #[test]
    fn identifiers_take_letters_digits_and_hyphens_only() {
        assert_eq!(parse_identifier(" 123-456789 ").unwrap(), "123-456789");
        assert_eq!(parse_identifier("PLN-1001").unwrap(), "PLN-1001");
        for bad in ["123 456", "123_456", "12'3", "1;drop", "ü123"] {
            assert_eq!(parse_identifier(bad), Err(ValidationError::SpecialCharacters), "{bad}");
        }
        assert_eq!(
            ValidationError::SpecialCharacters.to_string(),
            "Special characters not allowed"
        );
        assert_eq!(parse_identifier(&"1".repeat(41)), Err(ValidationError::TooLong(40)));
    }

    #[test]
    fn names_keep_what_was_typed_but_not_control_characters() {
        assert_eq!(parse_name("  O'Brien ").unwrap(), "O'Brien");
        assert_eq!(
            parse_name("Robert'); drop table members;--").unwrap(),
            "Robert'); drop table members;--"
        );
        assert_eq!(parse_name("a\u{0}b"), Err(ValidationError::SpecialCharacters));
        assert_eq!(parse_name(""), Err(ValidationError::Required));
        assert_eq!(parse_name(&"x".repeat(101)), Err(ValidationError::TooLong(100)));
        assert_eq!(parse_zip_code("80202-1234").unwrap(), "80202");
        assert_eq!(parse_zip_code("8020"), Err(ValidationError::ZipInvalid));
    }
}
