//! Extractors whose rejections are [`ApiError`]s, so malformed input gets our JSON format.

use axum::extract::rejection::{JsonRejection, PathRejection, QueryRejection};
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::HeaderMap;
use axum::http::request::Parts;
use serde::Deserialize;
use serde::de::DeserializeOwned;

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
        let value = match axum::Json::<serde_json::Value>::from_request(request, state).await {
            Ok(axum::Json(value)) => value,
            Err(JsonRejection::BytesRejection(rejection))
                if rejection.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE =>
            {
                return Err(ApiError::PayloadTooLarge);
            }
            Err(JsonRejection::MissingJsonContentType(_)) => {
                return Err(ApiError::known(codes::UNSUPPORTED_MEDIA_TYPE));
            }
            Err(rejection) => {
                return Err(ApiError::with_message(
                    codes::INVALID_BODY,
                    crate::edge::plain_message(&rejection.body_text()),
                ));
            }
        };
        if !value.is_object() {
            return Err(ApiError::with_message(
                codes::INVALID_BODY,
                "the body must be a JSON object",
            ));
        }
        if let Some(field) = crate::edge::find_nul(&value) {
            return Err(crate::edge::nul_in(&field));
        }
        serde_path_to_error::deserialize(value).map(Self).map_err(|error| {
            let path = error.path().to_string();
            let message = crate::edge::plain_message(&error.into_inner().to_string());
            let message = if path == "." {
                format!("Failed to deserialize the JSON body into the target type: {message}")
            } else {
                format!("Failed to deserialize the JSON body into the target type: {path}: {message}")
            };
            ApiError::with_message(codes::INVALID_BODY, message)
        })
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
                ApiError::with_message(codes::INVALID_QUERY, crate::edge::plain_message(&rejection.body_text()))
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
                ApiError::with_message(codes::INVALID_PATH, crate::edge::plain_message(&rejection.body_text()))
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
