//! The one error type at the HTTP edge: a stable snake_case `code` and a human `message`.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// The request is malformed or a value is out of range.
    #[error("{message}")]
    BadRequest { code: &'static str, message: String },
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
    #[error("the request body is too large")]
    PayloadTooLarge,
    /// Too many attempts in a short time.
    #[error("{0}")]
    TooManyRequests(String),
    /// The search index is not loaded yet.
    #[error("the marketplace is starting up, please retry in a moment")]
    Unavailable,
    /// Anything else: logged, never shown.
    #[error("internal error")]
    Internal(#[from] anyhow::Error),
}

#[derive(Serialize)]
struct ErrorBody<'a> {
    message: &'a str,
    code: &'a str,
}

impl ApiError {
    pub fn bad_request(code: &'static str, message: impl Into<String>) -> Self {
        Self::BadRequest {
            code,
            message: message.into(),
        }
    }

    pub fn status(&self) -> StatusCode {
        match self {
            Self::BadRequest { .. } => StatusCode::BAD_REQUEST,
            Self::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            Self::Forbidden(_) => StatusCode::FORBIDDEN,
            Self::NotFound(_) => StatusCode::NOT_FOUND,
            Self::PayloadTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            Self::TooManyRequests(_) => StatusCode::TOO_MANY_REQUESTS,
            Self::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
            Self::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    pub fn code(&self) -> &'static str {
        match self {
            Self::BadRequest { code, .. } => code,
            Self::Unauthorized(_) => "unauthorized",
            Self::Forbidden(_) => "forbidden",
            Self::NotFound(_) => "not_found",
            Self::PayloadTooLarge => "payload_too_large",
            Self::TooManyRequests(_) => "too_many_requests",
            Self::Unavailable => "unavailable",
            Self::Internal(_) => "internal",
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        if let Self::Internal(error) = &self {
            tracing::error!(error = format!("{error:#}"), "request failed");
        }
        let message = match &self {
            Self::Internal(_) => "Oops. Something went wrong".to_owned(),
            other => other.to_string(),
        };
        let body = ErrorBody {
            message: &message,
            code: self.code(),
        };
        (self.status(), axum::Json(body)).into_response()
    }
}

impl From<search::SearchError> for ApiError {
    fn from(error: search::SearchError) -> Self {
        use search::SearchError as E;
        match error {
            E::NoOrigin => Self::bad_request("no_origin", error.to_string()),
            E::UnknownZipCode(_) => Self::bad_request("unknown_zip_code", error.to_string()),
            E::InvalidParameter(_) => Self::bad_request("invalid_parameter", error.to_string()),
            E::InvalidFilter(_) => Self::bad_request("invalid_filter", error.to_string()),
            E::InvalidBounds(_) => Self::bad_request("invalid_bounds", error.to_string()),
            other => Self::Internal(anyhow::Error::new(other)),
        }
    }
}

impl From<store::StoreError> for ApiError {
    fn from(error: store::StoreError) -> Self {
        Self::Internal(anyhow::Error::new(error))
    }
}

impl From<sqlx::Error> for ApiError {
    fn from(error: sqlx::Error) -> Self {
        Self::Internal(anyhow::Error::new(error))
    }
}

pub type ApiResult<T> = Result<T, ApiError>;
