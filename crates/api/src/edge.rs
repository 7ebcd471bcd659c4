//! The request edge, before any handler: refusals that do not need one (a URI or a declared
//! body that is too long, a NUL character in the path or the query, two access tokens), the
//! bound on requests in flight per client behind a proxy, JSON bodies for the statuses axum and
//! tower answer bare (405, 408, ...), and the headers of every answer: security headers,
//! `Cache-Control: no-store` on account answers, `Connection: close` after a 408 or 413. (The
//! checks of every JSON body, NUL characters and plain messages, are in `extract`.)

use axum::extract::{Request, State};
use axum::http::{HeaderName, HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::auth::TOKEN_HEADER;
use crate::error::ApiError;
use crate::error_codes::{self as codes, ErrorCode};
use crate::state::AppState;

/// The longest request URI (path and query) answered; longer ones get a JSON 414. (Beyond
/// 64 KiB hyper itself refuses the request line with a bare 414 before any request exists.)
pub const MAX_URI_LENGTH: usize = 8 * 1024;

/// Refuses what can be refused from the request line and headers alone; behind a proxy, also
/// a client with too many requests in flight (the connection loop sees only the proxy).
pub async fn guard(State(state): State<AppState>, request: Request, next: Next) -> Response {
    if let Some(refusal) = refuse_early(&request, state.config.body_limit) {
        crate::observe::name_refusal(refusal.code());
        return refusal.into_response();
    }
    let _in_flight = match state.config.client_ip_header {
        Some(_) => {
            let key = crate::access::client_key(request.headers(), request.extensions(), &state.config);
            match key.map(|key| state.requests_per_client.try_take_key(key)) {
                Some(None) => {
                    crate::observe::name_refusal(codes::TOO_MANY_REQUESTS.code);
                    return ApiError::with_message(
                        codes::TOO_MANY_REQUESTS,
                        "Too many requests from your address at once. Please try again in a moment.",
                    )
                    .into_response();
                }
                Some(Some(slot)) => Some(slot),
                None => None,
            }
        }
        None => None,
    };
    next.run(request).await
}

fn refuse_early(request: &Request, body_limit: usize) -> Option<ApiError> {
    // Which of two tokens would be the caller's is a guess no server should make (a proxy
    // and the client may each have set one).
    if request.headers().get_all(TOKEN_HEADER).iter().nth(1).is_some() {
        return Some(ApiError::known(codes::DUPLICATE_TOKEN));
    }
    let uri = request.uri();
    let length = uri.path_and_query().map_or(0, |whole| whole.as_str().len());
    if length > MAX_URI_LENGTH {
        return Some(ApiError::known(codes::URI_TOO_LONG));
    }
    // A declared length over the limit is refused before a byte of the body is read.
    let declared = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.trim().parse::<u64>().ok());
    if declared.is_some_and(|declared| declared > body_limit as u64) {
        return Some(ApiError::PayloadTooLarge);
    }
    // A URI cannot hold a raw NUL (hyper refuses the request line), and a percent escape is a
    // `%` and two hex digits, so a part decodes to a NUL exactly when it holds `%00`: parts
    // without one are not decoded (decoding a FHIR `near=LAT%7CLNG%7C...` allocated its value).
    if uri.path().contains("%00") {
        return Some(crate::extract::nul_in("path"));
    }
    if let Some(query) = uri.query().filter(|query| query.contains("%00")) {
        for (name, value) in form_urlencoded::parse(query.as_bytes()) {
            if name.contains('\0') || value.contains('\0') {
                let field: String = name.replace('\0', "\\u0000").chars().take(100).collect();
                return Some(crate::extract::nul_in(&field));
            }
        }
    }
    None
}

/// Gives a JSON error body to error answers that have none (axum's 405, tower's 408, ...),
/// and adds the security headers to every answer, `no-store` to answers that may carry personal
/// data or a token, and `Connection: close` where the body was not read to its end.
pub async fn finish(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let personal = may_be_personal(&request);
    let mut response = next.run(request).await;
    let status = response.status();
    if (status.is_client_error() || status.is_server_error()) && !response.headers().contains_key(header::CONTENT_TYPE)
    {
        let mut replaced = bare_status_error(status).into_response();
        for name in [header::ALLOW, header::RETRY_AFTER] {
            if let Some(value) = response.headers().get(&name) {
                replaced.headers_mut().insert(name, value.clone());
            }
        }
        response = replaced;
    }
    add_security_headers(&mut response, state.config.hsts());
    let headers = response.headers_mut();
    if personal && !headers.contains_key(header::CACHE_CONTROL) {
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    // A 413 is answered before the body is read and a 408 may leave it half-read: what follows
    // on the connection is not the next request, so a kept-alive client must open a new one.
    if matches!(status, StatusCode::PAYLOAD_TOO_LARGE | StatusCode::REQUEST_TIMEOUT) {
        headers.insert(header::CONNECTION, HeaderValue::from_static("close"));
    }
    response
}

/// Whether an answer may hold personal data or a token: every member and provider call (the
/// login answers carry tokens, member info and the clinic panel personal data) and any call
/// made with a token. Public catalogue answers stay cacheable.
fn may_be_personal(request: &Request) -> bool {
    let path = request.uri().path();
    path.starts_with("/member/") || path.starts_with("/dpcproviders/") || request.headers().contains_key(TOKEN_HEADER)
}

/// The table entry of a status answered without a body.
fn bare_status_error(status: StatusCode) -> ApiError {
    let entry = match status {
        StatusCode::METHOD_NOT_ALLOWED => codes::METHOD_NOT_ALLOWED,
        StatusCode::URI_TOO_LONG => codes::URI_TOO_LONG,
        StatusCode::REQUEST_TIMEOUT => codes::REQUEST_TIMEOUT,
        StatusCode::PAYLOAD_TOO_LARGE => codes::PAYLOAD_TOO_LARGE,
        StatusCode::SERVICE_UNAVAILABLE => codes::UNAVAILABLE,
        StatusCode::NOT_FOUND => return ApiError::NotFound("not found".into()),
        other if other.is_server_error() => codes::INTERNAL,
        _ => codes::INVALID_BODY,
    };
    let message = entry.text.map_or_else(
        || status.canonical_reason().unwrap_or("refused").to_owned(),
        str::to_owned,
    );
    ApiError::with_message(ErrorCode { status, ..entry }, message)
}

/// The Content-Security-Policy: everything from this origin; inline styles (Leaflet positions
/// its panes with `style` attributes) and data:/blob: images (Leaflet's marker images, map
/// tiles drawn in the page); no frames, plugins or foreign form targets.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; worker-src 'self' blob:; object-src 'none'; \
base-uri 'self'; form-action 'self'; frame-ancestors 'none'";

fn add_security_headers(response: &mut Response, hsts: bool) {
    let headers = response.headers_mut();
    let fixed: [(HeaderName, &'static str); 4] = [
        (header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::X_FRAME_OPTIONS, "DENY"),
        (header::REFERRER_POLICY, "strict-origin-when-cross-origin"),
    ];
    for (name, value) in fixed {
        headers.insert(name, HeaderValue::from_static(value));
    }
    if hsts {
        headers.insert(
            header::STRICT_TRANSPORT_SECURITY,
            HeaderValue::from_static("max-age=31536000; includeSubDomains"),
        );
    }
}
