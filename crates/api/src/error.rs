//! The one error type at the HTTP edge: a stable snake_case `code` and a human `message`.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use serde_json::{Map, Value, json};

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
    #[serde(flatten)]
    details: Option<&'a Map<String, Value>>,
}

impl ApiError {
    pub fn bad_request(code: &'static str, message: impl Into<String>) -> Self {
        Self::BadRequest {
            code,
            message: message.into(),
        }
    }

    /// A 400 naming the request field at fault: `{message, code, field}`.
    pub fn invalid_field(field: &str, error: domain::accounts::ValidationError) -> Self {
        Self::detailed(
            StatusCode::BAD_REQUEST,
            error.code(),
            error.to_string(),
            json!({ "field": field }),
        )
    }

    /// An error with extra fields in its body; `details` must be a JSON object.
    pub fn detailed(status: StatusCode, code: &'static str, message: impl Into<String>, details: Value) -> Self {
        let details = match details {
            Value::Object(map) => map,
            _ => Map::new(),
        };
        Self::Detailed {
            status,
            code,
            message: message.into(),
            details,
        }
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
            Self::BadRequest { code, .. } | Self::Detailed { code, .. } => code,
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
            details: match &self {
                Self::Detailed { details, .. } => Some(details),
                _ => None,
            },
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

impl From<tokio::task::JoinError> for ApiError {
    fn from(error: tokio::task::JoinError) -> Self {
        Self::Internal(anyhow::Error::new(error))
    }
}

impl From<sqlx::Error> for ApiError {
    fn from(error: sqlx::Error) -> Self {
        Self::Internal(anyhow::Error::new(error))
    }
}

pub type ApiResult<T> = Result<T, ApiError>;
