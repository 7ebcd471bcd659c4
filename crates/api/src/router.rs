//! The HTTP router: every feature's routes, the layers around them, and the SPA fallback.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use std::time::SystemTime;

use axum::Router;
use axum::http::{HeaderValue, Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use tower_http::compression::CompressionLayer;
use tower_http::services::{ServeDir, ServeFile};
use tower_http::timeout::TimeoutLayer;

use crate::edge;
use crate::error::ApiError;
use crate::first_paint;
use crate::observe;
use crate::routes;
use crate::state::AppState;

/// Path prefixes that belong to the API; anything else is the SPA.
const API_PREFIXES: [&str; 9] = [
    "/legal/",
    "/member/",
    "/market/",
    "/dpcproviders/",
    "/health",
    "/ready",
    "/openapi.json",
    "/dev/",
    "/fhir/",
];

pub fn router(state: AppState) -> Router {
    let web_dist = state.config.web_dist.clone();
    let body_limit = state.config.body_limit;
    let observe = observe::Observe {
        slow_request: Duration::from_millis(state.config.slow_request_ms),
    };
    // Every route names itself to `observe` (its template, for metrics and logs).
    let api = feature_routes()
        .route_layer(observe::NameRoute)
        .with_state(state.clone());
    api.fallback_service(spa(web_dist, state.clone()))
        // Enforced by the body extractors, so an oversized body gets our JSON 413.
        .layer(axum::extract::DefaultBodyLimit::max(body_limit))
        // Too long a URI or declared body, a NUL in the path or query: refused at once.
        .layer(axum::middleware::from_fn_with_state(state.clone(), edge::guard))
        .layer(CompressionLayer::new())
        .layer(TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            Duration::from_secs(30),
        ))
        // JSON bodies for the bare 405 and 408, security headers on everything.
        .layer(axum::middleware::from_fn_with_state(state, edge::finish))
        .layer(tower_http::catch_panic::CatchPanicLayer::custom(|_| {
            ApiError::Internal(anyhow::anyhow!("a handler panicked")).into_response()
        }))
        // Outermost: the request id, span and measurement cover everything above, panics and
        // timeouts included.
        .layer(axum::middleware::from_fn_with_state(observe, observe::observe))
}

/// The built SPA with history-mode fallback to `index.html`; unknown API paths get a JSON 404.
/// A marketplace search link gets `index.html` with its first screen painted (`first_paint`).
fn spa(web_dist: PathBuf, state: AppState) -> Router {
    let index = web_dist.join("index.html");
    let files = ServeDir::new(&web_dist).fallback(ServeFile::new(index.clone()));
    let shell = Arc::new(StyledShell {
        index,
        built: Mutex::new(None),
    });
    Router::new().fallback_service(tower::service_fn(move |request: axum::extract::Request| {
        let files = files.clone();
        let shell = shell.clone();
        let state = state.clone();
        async move {
            let path = request.uri().path().to_owned();
            if API_PREFIXES.iter().any(|prefix| path.starts_with(prefix)) {
                return Ok::<Response, std::convert::Infallible>(not_found_api(request.uri()));
            }
            if let Some(query) = first_screen_query(&request)
                && let Some(painted) = painted_first_screen(&state, &query, &shell).await
            {
                return Ok(painted);
            }
            let mut files = files;
            match tower::Service::call(&mut files, request).await {
                Ok(response) if response.status() == StatusCode::NOT_FOUND => Ok(web_app_missing()),
                Ok(response) => Ok(response.into_response()),
                Err(error) => Ok(ApiError::Internal(anyhow::anyhow!("serving the web app: {error}")).into_response()),
            }
        }
    }))
}

/// The query of a GET of `/marketplace?…` by a visitor who is not signed in: a search link the
/// server may paint.
fn first_screen_query(request: &axum::extract::Request) -> Option<String> {
    if request.method() != Method::GET
        || request.uri().path() != first_paint::MARKETPLACE_PATH
        || first_paint::signed_in(request.headers())
    {
        return None;
    }
    request.uri().query().map(str::to_owned)
}

/// `index.html` with a search link's first screen in it, or None when the server does not paint
/// the link (the plain file is served). Built for this visit and this snapshot, it must not be
/// kept by a cache as the static shell may be.
async fn painted_first_screen(state: &AppState, query: &str, shell: &StyledShell) -> Option<Response> {
    let shell = shell.current().await?;
    let page = first_paint::paint(state, query, &shell).await?;
    let mut response = axum::response::Html(page).into_response();
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    Some(response)
}

/// `index.html` with the build's stylesheets written in, made once for each build of the web
/// app (told by the file's modification time, so a rebuild while the server runs is seen)
/// rather than read and inlined again for every painted visit.
struct StyledShell {
    index: PathBuf,
    built: Mutex<Option<(SystemTime, Arc<str>)>>,
}

impl StyledShell {
    async fn current(&self) -> Option<Arc<str>> {
        let modified = tokio::fs::metadata(&self.index).await.ok()?.modified().ok()?;
        if let Some((built_from, shell)) = &*self.built.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
            && *built_from == modified
        {
            return Some(shell.clone());
        }
        let plain = tokio::fs::read_to_string(&self.index).await.ok()?;
        let styled: Arc<str> = first_paint::inline_stylesheets(plain, self.index.parent()?)
            .await
            .into();
        *self.built.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) = Some((modified, styled.clone()));
        Some(styled)
    }
}

fn not_found_api(uri: &Uri) -> Response {
    ApiError::NotFound(format!("No route for {}", uri.path())).into_response()
}

fn web_app_missing() -> Response {
    let page = "<!doctype html><title>Nearcare</title><p>The web app is not built yet: run <code>npm run build</code> in <code>web/</code>.</p>";
    (StatusCode::NOT_FOUND, axum::response::Html(page)).into_response()
}

/// Every feature's routes. The route modules are siblings that never import each other.
fn feature_routes() -> Router<AppState> {
    Router::new()
        .merge(routes::health::router())
        .merge(routes::market::router())
        .merge(routes::geo::router())
        .merge(routes::profiles::router())
        .merge(routes::catalogue::router())
        .merge(routes::signup::router())
        .merge(routes::login::router())
        .merge(routes::passwords::router())
        .merge(routes::sessions::router())
        .merge(routes::verification::router())
        .merge(routes::eligibility::router())
        .merge(routes::members::router())
        .merge(routes::contact::router())
        .merge(routes::enrolment::router())
        .merge(routes::family::router())
        .merge(routes::waitlist::router())
        .merge(routes::favourites::router())
        .merge(routes::providers::router())
        .merge(routes::participation_review::router())
        .merge(routes::listings::router())
        .merge(routes::listing_codes::router())
        .merge(routes::legal::router())
        .merge(routes::clinic_panel::router())
        .merge(routes::analytics::router())
        .merge(routes::dev_mailbox::router())
        .merge(routes::fhir::router())
}
