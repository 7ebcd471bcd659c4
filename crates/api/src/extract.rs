//! Extractors whose rejections are [`ApiError`]s, so malformed input gets our JSON format.

use axum::extract::rejection::{JsonRejection, PathRejection, QueryRejection};
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::HeaderMap;
use axum::http::request::Parts;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use crate::auth::{LinkToken, TOKEN_HEADER};
use crate::error::ApiError;
use crate::error_codes as codes;

/// `axum::Json` with our error body. The body must be a JSON object (every call takes one), and
/// no string or key in it may hold a NUL character (PostgreSQL's text cannot): both are a 400
/// before the handler runs. Messages name the field at fault, never a Rust type.
pub struct Json<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for Json<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, Self::Rejection> {
        let value = Value::Object(checked_object(request, state).await?);
        serde_path_to_error::deserialize(value).map(Self).map_err(|error| {
            let path = error.path().to_string();
            let message = plain_message(&error.into_inner().to_string());
            let message = if path == "." {
                format!("Failed to deserialize the JSON body into the target type: {message}")
            } else {
                format!("Failed to deserialize the JSON body into the target type: {path}: {message}")
            };
            ApiError::with_message(codes::INVALID_BODY, message)
        })
    }
}

/// A JSON object body as parsed, refused as [`Json`] refuses one. For a handler that reads the
/// object by path itself (the search's): deserialising the parsed value again into a map only
/// copied it, on every search.
pub struct JsonObject(pub serde_json::Map<String, Value>);

impl<S: Send + Sync> FromRequest<S> for JsonObject {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, Self::Rejection> {
        checked_object(request, state).await.map(Self)
    }
}

/// The request's body as a JSON object with no NUL character in any string or key.
async fn checked_object<S: Send + Sync>(
    request: Request,
    state: &S,
) -> Result<serde_json::Map<String, Value>, ApiError> {
    let value = match axum::Json::<Value>::from_request(request, state).await {
        Ok(axum::Json(value)) => value,
        Err(JsonRejection::BytesRejection(rejection))
            if rejection.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE =>
        {
            return Err(ApiError::PayloadTooLarge);
        }
        Err(JsonRejection::BytesRejection(rejection)) if crate::body_rate::is_too_slow(&rejection) => {
            return Err(ApiError::known(codes::REQUEST_TIMEOUT));
        }
        Err(JsonRejection::MissingJsonContentType(_)) => {
            return Err(ApiError::known(codes::UNSUPPORTED_MEDIA_TYPE));
        }
        Err(rejection) => {
            return Err(ApiError::with_message(
                codes::INVALID_BODY,
                plain_message(&rejection.body_text()),
            ));
        }
    };
    let not_an_object = || ApiError::with_message(codes::INVALID_BODY, "the body must be a JSON object");
    if !value.is_object() {
        return Err(not_an_object());
    }
    if let Some(field) = find_nul(&value) {
        return Err(nul_in(&field));
    }
    match value {
        Value::Object(object) => Ok(object),
        _ => Err(not_an_object()),
    }
}

/// `axum::extract::Query` with our error body.
pub struct Query<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequestParts<S> for Query<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        axum::extract::Query::<T>::from_request_parts(parts, state)
            .await
            .map(|axum::extract::Query(value)| Self(value))
            .map_err(|rejection: QueryRejection| {
                ApiError::with_message(codes::INVALID_QUERY, plain_message(&rejection.body_text()))
            })
    }
}

/// `axum::extract::Path` with our error body.
pub struct Path<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned + Send> FromRequestParts<S> for Path<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        axum::extract::Path::<T>::from_request_parts(parts, state)
            .await
            .map(|axum::extract::Path(value)| Self(value))
            .map_err(|rejection: PathRejection| {
                ApiError::with_message(codes::INVALID_PATH, plain_message(&rejection.body_text()))
            })
    }
}

/// Reads an optional position from separate `lat` and `lng` values: both or neither, in range.
pub fn optional_position(lat: Option<f64>, lng: Option<f64>) -> Result<Option<domain::LatLng>, ApiError> {
    match (lat, lng) {
        (None, None) => Ok(None),
        (Some(lat), Some(lng)) => domain::LatLng::new(lat, lng).map(Some).ok_or_else(|| {
            ApiError::with_message(
                codes::INVALID_PARAMETER,
                "lat must be within -90 and 90, lng within -180 and 180",
            )
        }),
        _ => Err(ApiError::with_message(
            codes::INVALID_PARAMETER,
            "send both lat and lng, or neither",
        )),
    }
}

/// An id value that is not a whole number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NotAnId;

/// An id sent as a number or as digits in a string: `Ok(None)` when absent (null or blank).
pub fn lenient_id_value(value: Option<&serde_json::Value>) -> Result<Option<i64>, NotAnId> {
    use serde_json::Value;
    match value {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Number(number)) => number.as_i64().map(Some).ok_or(NotAnId),
        Some(Value::String(text)) if text.trim().is_empty() => Ok(None),
        Some(Value::String(text)) => text.trim().parse().map(Some).map_err(|_| NotAnId),
        Some(_) => Err(NotAnId),
    }
}

/// `deserialize_with` for an optional id field, as [`lenient_id_value`] reads it.
pub fn lenient_id<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Option<i64>, D::Error> {
    let value = Option::<serde_json::Value>::deserialize(deserializer)?;
    lenient_id_value(value.as_ref()).map_err(|NotAnId| serde::de::Error::custom("an id must be a whole number"))
}

/// The one-time token of a call that carries it "in the header": `x-access-token` when it holds
/// a link token (the SPA may also send its access token there, a JWT), else the body's or
/// query's `token`.
pub fn link_token(headers: &HeaderMap, fallback: Option<&str>) -> String {
    let header = headers
        .get(TOKEN_HEADER)
        .and_then(|value| value.to_str().ok())
        .map(str::trim);
    header
        .filter(|token| LinkToken::hash_of(token).is_some())
        .or(fallback.map(str::trim).filter(|token| !token.is_empty()))
        .or(header)
        .unwrap_or_default()
        .to_owned()
}

/// The 400 of a NUL character in `field`.
pub fn nul_in(field: &str) -> ApiError {
    ApiError::with_message(
        codes::INVALID_CHARACTER,
        format!("{field}: text may not contain a NUL (\\u0000) character"),
    )
    .with_details(json!({ "field": field }))
}

/// The first NUL character in a JSON value, as the path of the string or key holding it
/// (`search.filters.a\u0000b`, `items[2]`); `None` when there is none.
pub fn find_nul(value: &Value) -> Option<String> {
    fn walk(value: &Value, path: &mut String) -> bool {
        match value {
            Value::String(text) => text.contains('\0'),
            Value::Array(items) => items.iter().enumerate().any(|(index, item)| {
                let before = path.len();
                path.push_str(&format!("[{index}]"));
                let found = walk(item, path);
                if !found {
                    path.truncate(before);
                }
                found
            }),
            Value::Object(map) => map.iter().any(|(key, item)| {
                let before = path.len();
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(&key.replace('\0', "\\u0000"));
                let found = key.contains('\0') || walk(item, path);
                if !found {
                    path.truncate(before);
                }
                found
            }),
            _ => false,
        }
    }
    let mut path = String::new();
    walk(value, &mut path).then(|| {
        if path.is_empty() {
            "body".to_owned()
        } else {
            path.chars().take(100).collect()
        }
    })
}

/// A deserialisation message without Rust's names for types: `struct SearchBody` becomes
/// "an object", `i64` "a whole number", `f64` "a number".
pub fn plain_message(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut words = message.split_inclusive(|c: char| c.is_whitespace()).peekable();
    while let Some(word) = words.next() {
        let (core, tail) = split_trailing(word);
        let bare = core.trim_matches('`');
        match bare {
            "struct" | "enum" | "tuple" if words.peek().is_some() => {
                // Drop the type's name that follows ("struct SearchBody", "tuple struct Id").
                let mut next = words.next().unwrap_or_default();
                if bare == "tuple" && split_trailing(next).0 == "struct" {
                    next = words.next().unwrap_or_default();
                }
                let (_, next_tail) = split_trailing(next);
                out.push_str(if bare == "enum" {
                    "one of the allowed values"
                } else {
                    "an object"
                });
                out.push_str(next_tail);
            }
            "i8" | "i16" | "i32" | "i64" | "i128" | "isize" | "u8" | "u16" | "u32" | "u64" | "u128" | "usize" => {
                if out.ends_with("a ") && core.starts_with('`') {
                    out.truncate(out.len() - 2);
                }
                out.push_str("a whole number");
                out.push_str(tail);
            }
            "f32" | "f64" => {
                if out.ends_with("a ") && core.starts_with('`') {
                    out.truncate(out.len() - 2);
                }
                out.push_str("a number");
                out.push_str(tail);
            }
            _ => out.push_str(word),
        }
    }
    out
}

/// A word and what follows it: trailing punctuation and whitespace.
fn split_trailing(word: &str) -> (&str, &str) {
    let end = word
        .trim_end_matches(|c: char| c.is_whitespace() || matches!(c, ',' | '.' | ':' | ';' | ')'))
        .len();
    word.split_at(end)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn rust_type_names_become_plain_words() {
        assert_eq!(
            plain_message("invalid type: sequence, expected struct SearchBody"),
            "invalid type: sequence, expected an object"
        );
        assert_eq!(
            plain_message("Cannot parse `abc` to a `i64`"),
            "Cannot parse `abc` to a whole number"
        );
        assert_eq!(
            plain_message("invalid type: string \"x\", expected u32 at line 1"),
            "invalid type: string \"x\", expected a whole number at line 1"
        );
        assert_eq!(plain_message("expected f64."), "expected a number.");
        assert_eq!(plain_message("missing field `email`"), "missing field `email`");
    }

    #[test]
    fn a_nul_is_found_in_strings_and_keys_with_its_path() {
        assert_eq!(
            find_nul(&json!({ "a": "fine", "b": ["x", "y\u{0}"] })),
            Some("b[1]".into())
        );
        assert_eq!(
            find_nul(&json!({ "search": { "filters": { "k\u{0}": 1 } } })),
            Some("search.filters.k\\u0000".into())
        );
        assert_eq!(find_nul(&json!({ "a": "fine", "n": 1 })), None);
    }
}
