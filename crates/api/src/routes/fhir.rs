//! The public, read-only FHIR R4 API (Plan-Net) at `/fhir/r4`: the CapabilityStatement, read
//! and search, answered from the search snapshot (docs/fhir-contract.md). Errors here are
//! OperationOutcome resources, not the `{message, code}` of the rest of the API.

use std::sync::Arc;

use axum::Router;
use axum::extract::{Path, RawQuery, Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::any;
use fhir::search::{RenderCache, resource_json, search, write_bundle};
use fhir::{Directory, ParamError, ResourceType};
use search::Snapshot;
use serde_json::Value;
use tower_http::CompressionLevel;
use tower_http::compression::CompressionLayer;

use crate::state::AppState;

/// The content type of every answer.
const FHIR_JSON: &str = "application/fhir+json; charset=utf-8";

pub fn router() -> Router<AppState> {
    // Each served type has routes of its own, so metrics and logs name the documented template
    // (`/fhir/r4/Location/{id}`); `{kind}` answers any other type (404 naming the served ones).
    let mut router = Router::new().route("/fhir/r4/metadata", any(metadata));
    for kind in ResourceType::ALL {
        router = router
            .route(
                &format!("/fhir/r4/{}", kind.name()),
                any(
                    move |State(state): State<AppState>,
                          method: Method,
                          headers: HeaderMap,
                          RawQuery(query): RawQuery| async move {
                        search_type(&state, kind.name(), &method, &headers, query.as_deref()).await
                    },
                ),
            )
            .route(
                &format!("/fhir/r4/{}/{{id}}", kind.name()),
                any(
                    move |State(state): State<AppState>,
                          Path(id): Path<String>,
                          method: Method,
                          headers: HeaderMap,
                          RawQuery(query): RawQuery| async move {
                        read(&state, kind.name(), &id, &method, &headers, query.as_deref()).await
                    },
                ),
            );
    }
    router
        .route("/fhir/r4/{kind}", any(search_unserved))
        .route("/fhir/r4/{kind}/{id}", any(read_unserved))
        .route("/fhir", any(unknown))
        .route("/fhir/{*rest}", any(unknown))
        // FHIR clients ask for gzip (fhirpy's aiohttp and fhirclient's requests by default). At
        // the default level, compressing a page of `near` (53 KB) took 0.5 ms, four times the
        // page's own making; the fastest level takes about a third of that, for a body some 25%
        // larger. The application's outer layer passes an encoded answer through as it is.
        .layer(CompressionLayer::new().quality(CompressionLevel::Fastest))
}

async fn search_unserved(
    State(state): State<AppState>,
    Path(kind): Path<String>,
    method: Method,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
) -> FhirResult {
    search_type(&state, &kind, &method, &headers, query.as_deref()).await
}

async fn read_unserved(
    State(state): State<AppState>,
    Path((kind, id)): Path<(String, String)>,
    method: Method,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
) -> FhirResult {
    read(&state, &kind, &id, &method, &headers, query.as_deref()).await
}

/// An answer that is an OperationOutcome.
struct Outcome {
    status: StatusCode,
    code: &'static str,
    diagnostics: String,
    expression: Option<String>,
}

impl Outcome {
    fn new(status: StatusCode, code: &'static str, diagnostics: impl Into<String>) -> Self {
        Self {
            status,
            code,
            diagnostics: diagnostics.into(),
            expression: None,
        }
    }

    fn parameter(error: ParamError) -> Self {
        Self {
            expression: Some(error.parameter),
            ..Self::new(StatusCode::BAD_REQUEST, "invalid", error.message)
        }
    }
}

impl IntoResponse for Outcome {
    fn into_response(self) -> Response {
        let body = fhir::outcome::outcome(self.code, &self.diagnostics, self.expression.as_deref());
        let mut response = (self.status, resource_json(body)).into_response();
        response
            .headers_mut()
            .insert(header::CONTENT_TYPE, HeaderValue::from_static(FHIR_JSON));
        if self.status == StatusCode::METHOD_NOT_ALLOWED {
            response
                .headers_mut()
                .insert(header::ALLOW, HeaderValue::from_static("GET, HEAD"));
        }
        response
    }
}

type FhirResult = Result<Response, Outcome>;

/// How the answer is written: JSON (the only format), indented with `_pretty=true`.
struct Format {
    pretty: bool,
}

/// Checks the method, `Accept`, `_format` and `_pretty`; returns the query's pairs.
fn prepare(
    method: &Method,
    headers: &HeaderMap,
    query: Option<&str>,
) -> Result<(Vec<(String, String)>, Format), Outcome> {
    if method != Method::GET && method != Method::HEAD {
        return Err(Outcome::new(
            StatusCode::METHOD_NOT_ALLOWED,
            "not-supported",
            format!("{method} is not supported: this FHIR API is read-only"),
        ));
    }
    let pairs: Vec<(String, String)> = form_urlencoded::parse(query.unwrap_or("").as_bytes())
        .map(|(key, value)| (key.into_owned(), value.into_owned()))
        .collect();
    if let Some(accept) = headers.get(header::ACCEPT) {
        let accept = accept.to_str().unwrap_or("").to_ascii_lowercase();
        let acceptable = accept.is_empty()
            || accept.split(',').any(|kind| {
                let kind = kind.split(';').next().unwrap_or("").trim();
                matches!(
                    kind,
                    "*/*" | "application/*" | "application/fhir+json" | "application/json" | "application/json+fhir"
                )
            });
        if !acceptable {
            return Err(Outcome::new(
                StatusCode::NOT_ACCEPTABLE,
                "not-supported",
                format!("Accept \"{accept}\" is not served: answers are application/fhir+json"),
            ));
        }
    }
    let mut format = Format { pretty: false };
    for (key, value) in &pairs {
        match key.as_str() {
            "_format" => match value.as_str() {
                "json" | "application/json" | "application/fhir+json" | "application/json+fhir" => {}
                "xml" | "application/xml" | "application/fhir+xml" | "text/xml" => {
                    return Err(Outcome {
                        expression: Some("_format".into()),
                        ..Outcome::new(
                            StatusCode::NOT_ACCEPTABLE,
                            "not-supported",
                            "_format xml is not served: answers are application/fhir+json",
                        )
                    });
                }
                other => {
                    return Err(Outcome::parameter(ParamError::new(
                        "_format",
                        format!("_format \"{other}\" is not a format: use json"),
                    )));
                }
            },
            "_pretty" => match value.as_str() {
                "true" => format.pretty = true,
                "false" => format.pretty = false,
                other => {
                    return Err(Outcome::parameter(ParamError::new(
                        "_pretty",
                        format!("_pretty \"{other}\" must be true or false"),
                    )));
                }
            },
            _ => {}
        }
    }
    Ok((pairs, format))
}

/// Refuses any parameter but `_format` and `_pretty` (on a read and on metadata).
fn only_format_parameters(pairs: &[(String, String)], what: &str) -> Result<(), Outcome> {
    match pairs
        .iter()
        .find(|(key, _)| !fhir::params::FORMAT_PARAMS.contains(&key.as_str()))
    {
        Some((key, _)) => Err(Outcome::parameter(ParamError::new(
            key,
            format!("Unknown parameter \"{key}\" for {what}"),
        ))),
        None => Ok(()),
    }
}

fn answer(body: Vec<u8>, format: &Format) -> Response {
    let body = if format.pretty {
        match serde_json::from_slice::<Value>(&body) {
            Ok(value) => serde_json::to_vec_pretty(&value).unwrap_or(body),
            Err(_) => body,
        }
    } else {
        body
    };
    let mut response = body.into_response();
    response
        .headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(FHIR_JSON));
    response
}

fn base(state: &AppState) -> String {
    format!("{}/fhir/r4", state.mailer.public_url())
}

fn snapshot(state: &AppState) -> Result<Arc<Snapshot>, Outcome> {
    state.snapshot().map_err(|_| {
        Outcome::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "transient",
            "The directory is loading; try again shortly",
        )
    })
}

fn resource_type(kind: &str) -> Result<ResourceType, Outcome> {
    ResourceType::parse(kind).ok_or_else(|| {
        let served: Vec<&str> = ResourceType::ALL.iter().map(|kind| kind.name()).collect();
        let hint = if kind == "Network" {
            " (a Plan-Net Network is an Organization: search Organization?type=ntwk)"
        } else {
            ""
        };
        Outcome::new(
            StatusCode::NOT_FOUND,
            "not-supported",
            format!(
                "Resource type \"{kind}\" is not served{hint}; served: {}",
                served.join(", ")
            ),
        )
    })
}

async fn metadata(
    State(state): State<AppState>,
    method: Method,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
) -> FhirResult {
    let (pairs, format) = prepare(&method, &headers, query.as_deref())?;
    only_format_parameters(&pairs, "metadata")?;
    let published = state
        .snapshots
        .load()
        .map(|snapshot| fhir::resources::instant(snapshot.version.watermark_micros))
        .unwrap_or_else(|| fhir::resources::instant(0));
    let statement = fhir::capability::capability_statement(&base(&state), env!("CARGO_PKG_VERSION"), &published);
    Ok(answer(resource_json(statement), &format))
}

async fn search_type(
    state: &AppState,
    kind: &str,
    method: &Method,
    headers: &HeaderMap,
    query: Option<&str>,
) -> FhirResult {
    let (pairs, format) = prepare(method, headers, query)?;
    let kind = resource_type(kind)?;
    let query = fhir::parse_query(kind, &pairs).map_err(Outcome::parameter)?;
    let snapshot = snapshot(state)?;
    let directory = Directory::new(&snapshot);
    let page = search(&directory, &query).map_err(Outcome::parameter)?;
    let unit = query.near.map(|near| near.unit);
    Ok(answer(
        write_bundle(&directory, &base(state), &query, &page, unit),
        &format,
    ))
}

async fn read(
    state: &AppState,
    kind: &str,
    id: &str,
    method: &Method,
    headers: &HeaderMap,
    query: Option<&str>,
) -> FhirResult {
    let (pairs, format) = prepare(method, headers, query)?;
    let kind = resource_type(kind)?;
    only_format_parameters(&pairs, "a read")?;
    let snapshot = snapshot(state)?;
    let Some(item) = Directory::new(&snapshot).find(kind, id) else {
        return Err(Outcome::new(
            StatusCode::NOT_FOUND,
            "not-found",
            format!("{kind}/{id} is not known"),
        ));
    };
    let directory = Directory::new(&snapshot);
    let body = RenderCache::of(&directory).get(&directory, item).resource().to_vec();
    Ok(answer(body, &format))
}

async fn unknown(request: Request) -> Outcome {
    Outcome::new(
        StatusCode::NOT_FOUND,
        "not-found",
        format!("No FHIR interaction at {}", request.uri().path()),
    )
}
