//! Who a request is from: the caller named by the access token, the signed-in member's row, a
//! family member the caller manages, a provider account and its organisation, and the client
//! address rate limits key on. Every access
//! rule of the API lives here.

use std::net::SocketAddr;

use axum::extract::path::ErrorKind;
use axum::extract::rejection::PathRejection;
use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;
use axum::http::{Extensions, HeaderMap};
use domain::Relation;
use store::members::Member;

use crate::auth::{TOKEN_HEADER, Verified};
use crate::client_address::ClientKey;
use crate::config::Config;
use crate::error::{ApiError, ApiResult};
use crate::error_codes as codes;
use crate::extract::Path;
use crate::sessions::{SessionRef, SignInOrigin, device_name, network_of};
use crate::state::AppState;

/// The signed-in member, when the request carries a valid token of an open session.
#[derive(Debug, Clone, Copy)]
pub struct Caller {
    pub member_id: i64,
    /// The subscriber who switched to this member's account, when the token is theirs.
    pub actor: Option<i64>,
    /// The session the token belongs to.
    pub session: SessionRef,
}

/// A provider account acting for its organisation (docs/provider-contract.md).
#[derive(Debug, Clone, Copy)]
pub struct ProviderCaller {
    pub account_id: i64,
    pub organisation_id: i64,
    pub session: SessionRef,
}

/// Whoever a valid token names: a member or a provider account.
#[derive(Debug, Clone, Copy)]
pub enum Principal {
    Member(Caller),
    Provider(ProviderCaller),
}

impl Principal {
    /// The session the token belongs to.
    pub fn session(&self) -> SessionRef {
        match self {
            Self::Member(caller) => caller.session,
            Self::Provider(provider) => provider.session,
        }
    }

    /// The account whose sessions these are: the subscriber under a switched token.
    pub fn account_id(&self) -> i64 {
        match self {
            Self::Member(caller) => caller.actor.unwrap_or(caller.member_id),
            Self::Provider(provider) => provider.account_id,
        }
    }
}

/// The principal of the request's token: no header (or an empty one) is `None`; a bad token is
/// a 401 `unauthorized`, and one whose session ended (signed out, ended from another device,
/// idle, past its limit, its account deleted) a 401 `session_ended`. The session is checked in
/// memory ([`crate::sessions`]): no query on this path.
async fn principal(parts: &Parts, state: &AppState) -> ApiResult<Option<Principal>> {
    let Some(header) = parts.headers.get(TOKEN_HEADER) else {
        return Ok(None);
    };
    let token = header
        .to_str()
        .map_err(|_| ApiError::known(codes::INVALID_ACCESS_TOKEN))?
        .trim();
    if token.is_empty() {
        return Ok(None);
    }
    let invalid = || ApiError::known(codes::INVALID_ACCESS_TOKEN);
    let (claims, expired) = match state.tokens.verify(token).ok_or_else(invalid)? {
        Verified::Current(claims) => (claims, false),
        Verified::Expired(claims) => (claims, true),
    };
    // A token from before sessions names none: it is refused like a forged one.
    let session_id = claims
        .sid
        .as_deref()
        .and_then(|sid| sid.parse::<i64>().ok())
        .ok_or_else(invalid)?;
    if expired {
        return Err(state.sessions.expired());
    }
    let subject = claims.sub.parse::<i64>().map_err(|_| invalid())?;
    let actor = match claims.act {
        Some(actor) => Some(actor.sub.parse::<i64>().map_err(|_| invalid())?),
        None => None,
    };
    let organisation = match (claims.role.as_deref(), claims.org) {
        (None, None) => None,
        (Some(crate::auth::PROVIDER_ROLE), Some(organisation)) if actor.is_none() => Some(organisation),
        _ => return Err(invalid()),
    };
    // A deleted account, a family member who left the subscriber's family, a login that became
    // another kind: their sessions were ended when it happened.
    let session = state.sessions.check(session_id, subject, actor).await?;
    Ok(Some(match organisation {
        Some(organisation_id) => Principal::Provider(ProviderCaller {
            account_id: subject,
            organisation_id,
            session,
        }),
        None => Principal::Member(Caller {
            member_id: subject,
            actor,
            session,
        }),
    }))
}

/// The optional principal, for the calls both sides read (a solution, a vendor).
pub struct MaybePrincipal(pub Option<Principal>);

impl FromRequestParts<AppState> for MaybePrincipal {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        Ok(Self(principal(parts, state).await?))
    }
}

/// An optional member caller: no header is fine, a bad header is a 401, and so is a token whose
/// member no longer exists. A provider account's token reads as signed out: these are the
/// calls a signed-out visitor may make too.
pub struct MaybeCaller(pub Option<Caller>);

impl FromRequestParts<AppState> for MaybeCaller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        Ok(Self(match principal(parts, state).await? {
            Some(Principal::Member(caller)) => Some(caller),
            Some(Principal::Provider(_)) | None => None,
        }))
    }
}

impl FromRequestParts<AppState> for Principal {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        principal(parts, state).await?.ok_or_else(please_log_in)
    }
}

impl FromRequestParts<AppState> for ProviderCaller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        match principal(parts, state).await? {
            Some(Principal::Provider(provider)) => Ok(provider),
            Some(Principal::Member(_)) => Err(ApiError::known(codes::PROVIDER_ONLY)),
            None => Err(please_log_in()),
        }
    }
}

impl FromRequestParts<AppState> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        match principal(parts, state).await? {
            Some(Principal::Member(caller)) => Ok(caller),
            Some(Principal::Provider(_)) => Err(ApiError::known(codes::MEMBER_ONLY)),
            None => Err(please_log_in()),
        }
    }
}

/// The signed-in member's row, for calls that act on the caller's own record; 401 when the
/// token names an account that no longer exists.
pub struct SignedInMember {
    pub caller: Caller,
    pub member: Member,
}

impl FromRequestParts<AppState> for SignedInMember {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        let caller = Caller::from_request_parts(parts, state).await?;
        let member = signed_in_member(state, caller).await?;
        Ok(Self { caller, member })
    }
}

/// The member the access token names; 401 when the account no longer exists. For calls that
/// load the member only on some paths (an optional caller, errors that repeat their text).
pub async fn signed_in_member(state: &AppState, caller: Caller) -> ApiResult<Member> {
    store::members::find(&state.pool, caller.member_id)
        .await?
        .ok_or_else(please_log_in)
}

/// The 401 of a request whose token is missing or names no account.
pub fn please_log_in() -> ApiError {
    ApiError::known(codes::PLEASE_LOG_IN)
}

/// The caller acting as themselves, for the account calls (login email, password): 403
/// `switched_account` under a token switched to a family member, whose email is a contact
/// address and never a login (docs/accounts.md).
pub fn own_account(caller: Caller) -> ApiResult<Caller> {
    if caller.actor.is_some() {
        return Err(ApiError::known(codes::SWITCHED_ACCOUNT));
    }
    Ok(caller)
}

/// The signed-in subscriber, when they may manage a family: acting as themselves (not switched
/// to a family member's account), relation Self, managed by nobody. 403 otherwise.
pub async fn family_head(state: &AppState, caller: Caller) -> ApiResult<Member> {
    if caller.actor.is_some() {
        return Err(ApiError::known(codes::ONLY_PRIMARY));
    }
    let member = signed_in_member(state, caller).await?;
    if member.subscriber_relation != Relation::SelfSubscriber.as_str() || member.subscriber_id.is_some() {
        return Err(ApiError::known(codes::ONLY_PRIMARY));
    }
    Ok(member)
}

/// The subscriber and one of their family members, named by the route's first path parameter
/// (`{dependent_id}`): 403 unless the caller heads a family (see [`family_head`]) and the
/// member is theirs, 404 for an id nobody has.
pub struct FamilyMemberOfCaller {
    pub subscriber: Member,
    pub relative: Member,
}

impl FromRequestParts<AppState> for FamilyMemberOfCaller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        let caller = Caller::from_request_parts(parts, state).await?;
        let member_id = first_path_id(parts, state).await?;
        family_member_of(state, caller, member_id).await
    }
}

/// The rules of [`FamilyMemberOfCaller`] for a member id that is not the route's first path
/// parameter (switching accounts).
pub async fn family_member_of(state: &AppState, caller: Caller, member_id: i64) -> ApiResult<FamilyMemberOfCaller> {
    let subscriber = family_head(state, caller).await?;
    let relative = store::members::find(&state.pool, member_id)
        .await?
        .ok_or_else(|| ApiError::known(codes::NO_DEPENDENT))?;
    if relative.subscriber_id != Some(subscriber.id) {
        return Err(ApiError::known(codes::NOT_YOURS));
    }
    Ok(FamilyMemberOfCaller { subscriber, relative })
}

/// The route's first path parameter as an id. A route with a second parameter is read as a
/// pair, so a malformed id gets the message the route's own `Path` extractor would give.
async fn first_path_id(parts: &mut Parts, state: &AppState) -> ApiResult<i64> {
    match axum::extract::Path::<i64>::from_request_parts(parts, state).await {
        Ok(axum::extract::Path(id)) => Ok(id),
        Err(PathRejection::FailedToDeserializePathParams(error))
            if matches!(error.kind(), ErrorKind::WrongNumberOfParameters { .. }) =>
        {
            let Path((id, _)) = Path::<(i64, i64)>::from_request_parts(parts, state).await?;
            Ok(id)
        }
        Err(rejection) => Err(ApiError::with_message(
            codes::INVALID_PATH,
            crate::extract::plain_message(&rejection.body_text()),
        )),
    }
}

/// The client's address as limits key it (see [`ClientKey`]): the peer's, or, behind proxies,
/// the entry of the configured header that the trusted proxies wrote: `trusted_proxy_hops`
/// entries from the right. Entries to the left of that one were written by the client and are
/// never used; an entry that is not an address counts as the peer (the proxy), so made-up text
/// never earns a budget of its own.
#[derive(Debug, Clone)]
pub struct ClientIp(pub String);

impl FromRequestParts<AppState> for ClientIp {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        let key = client_key(&parts.headers, &parts.extensions, &state.config);
        Ok(Self(key.map_or_else(|| "unknown".to_owned(), |key| key.to_string())))
    }
}

/// The key of a request's client; `None` only for a request that came through no connection.
pub fn client_key(headers: &HeaderMap, extensions: &Extensions, config: &Config) -> Option<ClientKey> {
    if let Some(header) = &config.client_ip_header {
        // Several header lines read as one list, in order (RFC 9110 5.3).
        let joined = headers
            .get_all(header.as_str())
            .iter()
            .filter_map(|value| value.to_str().ok())
            .collect::<Vec<_>>()
            .join(",");
        if let Some(key) = proxied_address(&joined, config.trusted_proxy_hops).and_then(ClientKey::parse) {
            return Some(key);
        }
    }
    extensions
        .get::<ConnectInfo<SocketAddr>>()
        .map(|ConnectInfo(address)| ClientKey::of(address.ip()))
}

/// Where a sign-in comes from: the device named by the user agent and the client address's
/// network (never the address).
impl FromRequestParts<AppState> for SignInOrigin {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        let client = client_key(&parts.headers, &parts.extensions, &state.config);
        let user_agent = parts
            .headers
            .get(axum::http::header::USER_AGENT)
            .and_then(|value| value.to_str().ok())
            .unwrap_or_default();
        Ok(Self {
            device: device_name(user_agent),
            network: network_of(client.map(|key| key.address())),
        })
    }
}

/// The entry `hops` from the right of a comma-separated proxy header (the leftmost when there
/// are fewer); `None` for an empty header or `hops` 0.
pub fn proxied_address(header: &str, hops: usize) -> Option<&str> {
    let entries: Vec<&str> = header
        .split(',')
        .map(str::trim)
        .filter(|entry| !entry.is_empty())
        .collect();
    if hops == 0 || entries.is_empty() {
        return None;
    }
    Some(entries[entries.len().saturating_sub(hops)])
}

#[cfg(test)]
mod tests {
    use super::proxied_address;

    #[test]
    fn the_address_is_the_one_the_trusted_proxies_appended() {
        let header = "198.51.100.7, 203.0.113.7";
        assert_eq!(proxied_address(header, 1), Some("203.0.113.7"));
        assert_eq!(proxied_address(header, 2), Some("198.51.100.7"));
        assert_eq!(proxied_address(header, 5), Some("198.51.100.7"));
        assert_eq!(proxied_address(" , ", 1), None);
        assert_eq!(proxied_address(header, 0), None);
    }
}
