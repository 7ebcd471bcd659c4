//! Reading form fields: the SPA sends text, numbers or nothing, and a refused value is a 400
//! naming the field (`{message, code, field}`).

use domain::accounts::{Email, NewPassword, ValidationError, parse_name};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::error::{ApiError, ApiResult};
use crate::error_codes as codes;

/// The person fields the eligibility, add-family and edit-family forms share, each kept as the
/// JSON that was sent so that a value of the wrong type is a 400 naming its own field.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PersonFields {
    pub first_name: Option<Value>,
    pub last_name: Option<Value>,
    pub dob: Option<Value>,
    pub gender: Option<Value>,
    pub email: Option<Value>,
    pub phone: Option<Value>,
    pub zip_code: Option<Value>,
}

/// Form values may arrive as text or numbers (member ids, ZIP codes); anything else is refused.
pub fn text(field: &str, value: &Option<Value>) -> ApiResult<Option<String>> {
    match value {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(text)) => Ok(Some(text.trim().to_owned()).filter(|text| !text.is_empty())),
        Some(Value::Number(number)) => Ok(Some(number.to_string())),
        Some(_) => {
            Err(ApiError::with_message(codes::INVALID_FIELD, "Must be text").with_details(json!({ "field": field })))
        }
    }
}

/// A field that must be present.
pub fn required(field: &str, value: &Option<Value>) -> ApiResult<String> {
    text(field, value)?.ok_or_else(|| ApiError::invalid_field(field, ValidationError::Required))
}

/// A validation result as a 400 naming `field`.
pub fn check<T>(field: &str, result: Result<T, ValidationError>) -> ApiResult<T> {
    result.map_err(|error| ApiError::invalid_field(field, error))
}

/// An optional field checked by `parse` when present.
pub fn optional<T>(
    field: &str,
    value: &Option<Value>,
    parse: impl FnOnce(&str) -> Result<T, ValidationError>,
) -> ApiResult<Option<T>> {
    text(field, value)?.map(|text| check(field, parse(&text))).transpose()
}

/// A checkbox value: `true`, 1 or "true".
pub fn ticked(value: &Option<Value>) -> bool {
    match value {
        Some(Value::Bool(ticked)) => *ticked,
        Some(Value::Number(number)) => number.as_i64() == Some(1),
        Some(Value::String(text)) => text.trim().eq_ignore_ascii_case("true"),
        _ => false,
    }
}

/// An id sent as a number or a digit string; anything else is a 400 naming the field.
pub fn id_field(field: &str, value: &Option<Value>) -> ApiResult<Option<i64>> {
    let invalid = || {
        ApiError::with_message(codes::INVALID_FIELD, "Must be a whole number").with_details(json!({ "field": field }))
    };
    crate::extract::lenient_id_value(value.as_ref()).map_err(|_| invalid())
}

/// The email field, validated.
pub fn parse_email(value: Option<&str>) -> ApiResult<Email> {
    Email::parse(value.unwrap_or_default()).map_err(|error| ApiError::invalid_field("email", error))
}

/// A new password and its confirmation; a mismatch names `confirmPassword`.
pub fn parse_new_password(password: Option<&str>, confirmation: Option<&str>) -> ApiResult<NewPassword> {
    NewPassword::parse_confirmed(password.unwrap_or_default(), confirmation).map_err(|error| {
        let field = if error == ValidationError::PasswordMismatch {
            "confirmPassword"
        } else {
            "password"
        };
        ApiError::invalid_field(field, error)
    })
}

/// Optional free text: blank is absent.
pub fn optional_name(field: &str, value: Option<&str>) -> ApiResult<Option<String>> {
    match value.map(str::trim).filter(|text| !text.is_empty()) {
        Some(text) => parse_name(text)
            .map(Some)
            .map_err(|error| ApiError::invalid_field(field, error)),
        None => Ok(None),
    }
}

/// A body carrying an email.
#[derive(Debug, Default, Deserialize)]
pub struct EmailBody {
    pub email: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
pub struct EmailQuery {
    pub email: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
pub struct TokenBody {
    pub token: Option<String>,
    pub email: Option<String>,
}
