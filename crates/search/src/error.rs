//! The crate's one error type. Imports nothing from the crate.

/// Errors of the search engine.
#[derive(Debug, thiserror::Error)]
pub enum SearchError {
    /// The request has no position: no lat/lng, and no userZipCode or zipCode we know.
    #[error("a location is required: send lat and lng, userZipCode or zipCode")]
    NoOrigin,
    /// The ZIP code is well formed but not in the gazetteer.
    #[error("unknown ZIP code {0}")]
    UnknownZipCode(String),
    /// A parameter is outside its allowed range.
    #[error("{0}")]
    InvalidParameter(String),
    /// A filter value is not acceptable.
    #[error("{0}")]
    InvalidFilter(String),
    /// The map bounds are malformed.
    #[error("invalid bounds: {0}")]
    InvalidBounds(String),
    /// The tantivy index failed.
    #[error("text index error: {0}")]
    Index(#[from] tantivy::TantivyError),
    /// Reading or writing a snapshot directory failed.
    #[error("snapshot io error: {0}")]
    Io(#[from] std::io::Error),
    /// A snapshot directory is incomplete or inconsistent.
    #[error("snapshot is corrupt: {0}")]
    Corrupt(String),
}

impl SearchError {
    /// True for errors caused by the request rather than by the engine.
    pub fn is_client_error(&self) -> bool {
        matches!(
            self,
            Self::NoOrigin
                | Self::UnknownZipCode(_)
                | Self::InvalidParameter(_)
                | Self::InvalidFilter(_)
                | Self::InvalidBounds(_)
        )
    }
}

impl From<tantivy::directory::error::OpenDirectoryError> for SearchError {
    fn from(error: tantivy::directory::error::OpenDirectoryError) -> Self {
        Self::Index(error.into())
    }
}

impl From<postcard::Error> for SearchError {
    fn from(error: postcard::Error) -> Self {
        Self::Corrupt(error.to_string())
    }
}
