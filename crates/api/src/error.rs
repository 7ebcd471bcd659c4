//! The one error type at the HTTP edge: a stable snake_case `code` and a human `message`.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use serde_json::{Map, Value, json};

use crate::error_codes::{self as codes, ErrorCode};

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// No valid credentials.
    #[error("{0}")]
    Unauthorized(String),
    /// Valid credentials, but not for this resource.
    #[error("{0}")]
    Forbidden(String),
    /// The thing named does not exist.
    #[error("{0}")]
    NotFound(String),
    /// The body is larger than the configured limit.
    #[error("{}", codes::PAYLOAD_TOO_LARGE.text())]
    PayloadTooLarge,
    /// Too many attempts in a short time.
    #[error("{0}")]
    TooManyRequests(String),
    /// The search index is not loaded yet.
    #[error("{}", codes::UNAVAILABLE.text())]
    Unavailable,
    /// A refusal whose body carries more than `message` and `code` (the field at fault, the
    /// eligibility outcome); `details` are merged into the body.
    #[error("{message}")]
    Detailed {
        status: StatusCode,
        code: &'static str,
        message: String,
        details: Map<String, Value>,
    },
    /// Anything else: logged, never shown.
    #[error("internal error")]
    Internal(#[from] anyhow::Error),
}

#[derive(Serialize)]
struct ErrorBody<'a> {
    message: &'a str,
    code: &'a str,
    /// On 5xx answers: the request's id, for a report to name (see `crate::observe`).
    #[serde(rename = "requestId", skip_serializing_if = "Option::is_none")]
    request_id: Option<&'a str>,
    #[serde(flatten)]
    details: Option<&'a Map<String, Value>>,
}

impl ApiError {
    /// The error of a table entry, answered with the entry's text.
    pub fn known(entry: ErrorCode) -> Self {
        Self::with_message(entry, entry.text())
    }

    /// The error of a table entry with a message written where it happens (the entries without
    /// a text: a parameter at fault, a missing id).
    pub fn with_message(entry: ErrorCode, message: impl Into<String>) -> Self {
        Self::Detailed {
            status: entry.status,
            code: entry.code,
            message: message.into(),
            details: Map::new(),
        }
    }

    /// The error of a table entry whose text carries values: each `{name}` in the text is
    /// replaced by its value.
    pub fn filled(entry: ErrorCode, values: &[(&str, &str)]) -> Self {
        let message = values.iter().fold(entry.text().to_owned(), |text, (name, value)| {
            text.replace(&format!("{{{name}}}"), value)
        });
        Self::with_message(entry, message)
    }

    /// The same error with extra fields in its body; `details` must be a JSON object.
    pub fn with_details(self, details: Value) -> Self {
        let Value::Object(extra) = details else {
            return self;
        };
        match self {
            Self::Detailed {
                status,
                code,
                message,
                mut details,
            } => {
                details.extend(extra);
                Self::Detailed {
                    status,
                    code,
                    message,
                    details,
                }
            }
            other => other,
        }
    }

    /// A 400 naming the request field at fault: `{message, code, field}`, with the validation
    /// error's own code and text (the table lists each code).
    pub fn invalid_field(field: &str, error: domain::accounts::ValidationError) -> Self {
        let entry = ErrorCode {
            code: error.code(),
            ..codes::INVALID_FIELD
        };
        Self::with_message(entry, error.to_string()).with_details(json!({ "field": field }))
    }

    /// The same error with its message repeated as `msg` (the password-change screen reads it).
    pub fn with_msg(self) -> Self {
        if matches!(self, Self::Internal(_)) {
            return self;
        }
        let status = self.status();
        let code = self.code();
        let message = self.to_string();
        let mut details = match self {
            Self::Detailed { details, .. } => details,
            _ => Map::new(),
        };
        details.insert("msg".into(), Value::String(message.clone()));
        Self::Detailed {
            status,
            code,
            message,
            details,
        }
    }

    pub fn status(&self) -> StatusCode {
        match self {
            Self::Detailed { status, .. } => *status,
            Self::Unauthorized(_) => codes::PLEASE_LOG_IN.status,
            Self::Forbidden(_) => codes::FORBIDDEN.status,
            Self::NotFound(_) => codes::NOT_FOUND.status,
            Self::PayloadTooLarge => codes::PAYLOAD_TOO_LARGE.status,
            Self::TooManyRequests(_) => codes::TOO_MANY_REQUESTS.status,
            Self::Unavailable => codes::UNAVAILABLE.status,
            Self::Internal(_) => codes::INTERNAL.status,
        }
    }

    pub fn code(&self) -> &'static str {
        match self {
            Self::Detailed { code, .. } => code,
            Self::Unauthorized(_) => codes::PLEASE_LOG_IN.code,
            Self::Forbidden(_) => codes::FORBIDDEN.code,
            Self::NotFound(_) => codes::NOT_FOUND.code,
            Self::PayloadTooLarge => codes::PAYLOAD_TOO_LARGE.code,
            Self::TooManyRequests(_) => codes::TOO_MANY_REQUESTS.code,
            Self::Unavailable => codes::UNAVAILABLE.code,
            Self::Internal(_) => codes::INTERNAL.code,
        }
    }
}

/// Whether a database error means PostgreSQL cannot be reached (down, restarting, refusing
/// connections, no connection free in time), not that the query was wrong.
pub fn is_database_outage(error: &sqlx::Error) -> bool {
    match error {
        sqlx::Error::PoolTimedOut | sqlx::Error::PoolClosed | sqlx::Error::Io(_) | sqlx::Error::Tls(_) => true,
        // Class 08: connection exceptions; 57P01-57P03: shutting down, crashed, starting up.
        sqlx::Error::Database(database) => database
            .code()
            .is_some_and(|code| code.starts_with("08") || code.starts_with("57P")),
        _ => false,
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        if let Self::Internal(error) = &self {
            let outage = error
                .chain()
                .filter_map(|cause| cause.downcast_ref::<sqlx::Error>())
                .any(is_database_outage);
            if outage {
                let timed_out = error
                    .chain()
                    .any(|cause| matches!(cause.downcast_ref::<sqlx::Error>(), Some(sqlx::Error::PoolTimedOut)));
                if timed_out {
                    crate::metrics::pool_acquire_timeout();
                }
                tracing::warn!(error = format!("{error:#}"), "database unavailable");
                let mut response = Self::known(codes::DATABASE_UNAVAILABLE).into_response();
                response.headers_mut().insert(
                    axum::http::header::RETRY_AFTER,
                    axum::http::HeaderValue::from_static("5"),
                );
                return response;
            }
            tracing::error!(error = format!("{error:#}"), "request failed");
        }
        let message = match &self {
            Self::Internal(_) => codes::INTERNAL.text().to_owned(),
            other => other.to_string(),
        };
        let status = self.status();
        let request_id = status.is_server_error().then(store::request_id::current).flatten();
        let body = ErrorBody {
            message: &message,
            code: self.code(),
            request_id: request_id.as_ref().map(store::request_id::RequestId::as_str),
            details: match &self {
                Self::Detailed { details, .. } => Some(details),
                _ => None,
            },
        };
        (status, axum::Json(body)).into_response()
    }
}

impl From<&ErrorCode> for ApiError {
    fn from(entry: &ErrorCode) -> Self {
        Self::known(*entry)
    }
}

impl From<search::SearchError> for ApiError {
    fn from(error: search::SearchError) -> Self {
        use search::SearchError as E;
        match error {
            E::NoOrigin => Self::with_message(codes::NO_ORIGIN, error.to_string()),
            E::UnknownZipCode(_) => Self::with_message(codes::UNKNOWN_ZIP_CODE, error.to_string()),
            E::InvalidParameter(_) => Self::with_message(codes::INVALID_PARAMETER, error.to_string()),
            E::InvalidFilter(_) => Self::with_message(codes::INVALID_FILTER, error.to_string()),
            E::InvalidBounds(_) => Self::with_message(codes::INVALID_BOUNDS, error.to_string()),
            other => Self::Internal(anyhow::Error::new(other)),
        }
    }
}

/// A refused listing value: 400 with the code of its kind and `field` naming it.
impl From<domain::listing::ListingError> for ApiError {
    fn from(error: domain::listing::ListingError) -> Self {
        use domain::listing::ListingErrorKind as K;
        let entry = match error.kind {
            K::UnknownField => codes::UNKNOWN_FIELD,
            K::WrongType(_) => codes::INVALID_TYPE,
            K::UnknownCode(_) => codes::UNKNOWN_CODE,
            K::OutOfRange(_) => codes::OUT_OF_RANGE,
            K::Invalid(_) => codes::INVALID_VALUE,
            K::NothingToChange => return Self::known(codes::LISTING_NOTHING_TO_CHANGE),
        };
        Self::with_message(entry, error.to_string()).with_details(json!({ "field": error.field }))
    }
}

impl From<store::StoreError> for ApiError {
    fn from(error: store::StoreError) -> Self {
        Self::Internal(anyhow::Error::new(error))
    }
}

impl From<tokio::task::JoinError> for ApiError {
    fn from(error: tokio::task::JoinError) -> Self {
        Self::Internal(anyhow::Error::new(error))
    }
}

impl From<getrandom::Error> for ApiError {
    fn from(error: getrandom::Error) -> Self {
        Self::Internal(anyhow::anyhow!("no randomness: {error}"))
    }
}

impl From<sqlx::Error> for ApiError {
    fn from(error: sqlx::Error) -> Self {
        Self::Internal(anyhow::Error::new(error))
    }
}

pub type ApiResult<T> = Result<T, ApiError>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_known_error_answers_its_table_entry() {
        let error = ApiError::from(&codes::MEMBER_EXISTS);
        assert_eq!(error.status(), codes::MEMBER_EXISTS.status);
        assert_eq!(error.code(), "member_exists");
        assert_eq!(error.to_string(), codes::MEMBER_EXISTS.text());
    }

    #[test]
    fn placeholders_are_filled_and_details_merged() {
        let entry = ErrorCode {
            text: Some("No {thing} at {place}"),
            ..codes::NOT_FOUND
        };
        let error =
            ApiError::filled(entry, &[("thing", "clinic"), ("place", "80202")]).with_details(json!({ "field": "zip" }));
        assert_eq!(error.to_string(), "No clinic at 80202");
        let ApiError::Detailed { details, .. } = error else {
            panic!("a table entry answers a detailed error");
        };
        assert_eq!(details["field"], "zip");
    }
}
