//! Clinic, clinician and preview profiles, answered from the snapshot.

use axum::Router;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use domain::{LatLng, Location, haversine_miles};
use search::Snapshot;
use serde::Deserialize;
use serde_json::{Value, json};
use store::favourites::Entity;

use crate::access::{FamilyMemberOfCaller, MaybeCaller};
use crate::error::{ApiError, ApiResult};
use crate::error_codes as codes;
use crate::extract::{Path, Query};
use crate::services::favourites::{is_favourite, is_waitlisted};
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/member/app/market/provider/{id}", get(provider))
        .route(
            "/member/app/family/member/{dependent_id}/market/provider/{id}",
            get(dependent_provider),
        )
        .route("/member/app/market/doctor/{id}", get(doctor))
        .route("/member/app/market/location/{id}/preview", get(preview))
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProviderQuery {
    location_id: Option<i64>,
}

#[derive(Debug, Deserialize)]
pub struct OriginQuery {
    lat: Option<f64>,
    lng: Option<f64>,
}

impl OriginQuery {
    fn origin(&self) -> ApiResult<Option<LatLng>> {
        crate::extract::optional_position(self.lat, self.lng)
    }
}

/// The location of an organisation: the one asked for, or its first.
fn organisation_location(snapshot: &Snapshot, organisation_id: i64, location_id: Option<i64>) -> ApiResult<usize> {
    let locations = snapshot.organisation_locations(organisation_id);
    let ordinal = match location_id {
        Some(location_id) => snapshot
            .location_ordinal(location_id)
            .filter(|ordinal| locations.contains(&(*ordinal as u32))),
        None => locations
            .iter()
            .map(|ordinal| *ordinal as usize)
            .min_by_key(|ordinal| snapshot.location(*ordinal).id),
    };
    ordinal.ok_or_else(|| ApiError::known(codes::PROVIDER_NOT_FOUND))
}

/// A clinic profile from the snapshot (opening hours included); the description and the
/// listing's other facts (languages, accessibility, telehealth, when it was last confirmed:
/// docs/listings-contract.md), and the caller's favourite and waitlist flags, are read from
/// PostgreSQL.
async fn clinic_profile(
    state: &AppState,
    snapshot: &Snapshot,
    organisation_id: i64,
    ordinal: usize,
    viewer: Option<i64>,
) -> ApiResult<Value> {
    let location_id = snapshot.location(ordinal).id;
    let facts = store::listings::location_profile(&state.pool, location_id)
        .await?
        .ok_or_else(|| ApiError::known(codes::PROVIDER_NOT_FOUND))?;
    let (favorite, waitlisted) = tokio::try_join!(
        is_favourite(state, viewer, Entity::Location, location_id),
        is_waitlisted(state, viewer, location_id),
    )?;
    let location = snapshot.location(ordinal);
    let organisation = snapshot.organisation_of(ordinal);
    let clinicians: Vec<Value> = snapshot
        .clinicians_at(ordinal)
        .iter()
        .map(|clinician_ordinal| {
            let clinician = snapshot.clinician(*clinician_ordinal as usize);
            json!({
                "id": clinician.id,
                "providerName": clinician.display_name(),
                "credentials": clinician.credentials,
                "category": clinician.category,
                "speciality": clinician.speciality,
                "gender": clinician.gender.as_str(),
                "worksAt": location.name,
                "logo": clinician.logo,
                "newPatients": clinician.accepting_new_patients,
            })
        })
        .collect();
    let other_locations: Vec<Value> = snapshot
        .organisation_locations(organisation_id)
        .iter()
        .map(|other| snapshot.location(*other as usize))
        .filter(|other| other.id != location.id)
        .take(50)
        .map(|other| {
            json!({
                "locationId": other.id,
                "locationName": other.location_name,
                "address1": other.address1,
                "city": other.city,
                "state": other.state,
                "zipCode": other.zip,
                "newPatients": other.accepting_new_patients,
            })
        })
        .collect();
    Ok(json!({
        "id": organisation_id,
        "locationId": location.id,
        "companyName": location.name,
        "organizationName": organisation.name,
        "locationName": location.location_name,
        "logo": location.logo,
        "credentials": snapshot.location_credentials(ordinal),
        "speciality": snapshot.location_speciality(ordinal),
        "newPatients": location.accepting_new_patients,
        "isVirtualLocation": location.is_virtual,
        "virtualStates": location.virtual_states,
        "homeCare": location.home_care,
        "careModality": location.modalities.as_displayed(location.is_virtual),
        "details": { "description": facts.description },
        "hours": snapshot.location_hours(ordinal).map(domain::listing::WeeklyHours::to_json),
        "timeZone": facts.time_zone.as_str(),
        "languages": languages_json(facts.languages.iter()),
        "accessibility": facts.accessibility.iter().map(|code| json!({ "code": code.code(), "label": code.label() })).collect::<Vec<_>>(),
        "telehealth": facts.telehealth,
        "lastVerified": facts.last_verified,
        "favorite": favorite,
        "waitlisted": waitlisted,
        "contracted": false,
        "contact": {
            "phone": domain::accounts::displayed_phone(&location.phone),
            "address1": location.address1,
            "city": location.city,
            "state": location.state,
            "zipCode": location.zip,
            "website": location.website,
            "coordinates": { "lat": location.lat, "lng": location.lng },
        },
        "services": location.service_type_codes.iter().map(|code| json!({ "serviceType": code })).collect::<Vec<_>>(),
        "pediatrics": {
            "offered": snapshot.offers_pediatrics(ordinal),
            "minAge": location.pediatric_min_age,
            "maxAge": location.pediatric_max_age,
        },
        "clinicians": clinicians,
        "otherLocations": other_locations,
    }))
}

async fn provider(
    State(state): State<AppState>,
    MaybeCaller(caller): MaybeCaller,
    Path(id): Path<i64>,
    Query(query): Query<ProviderQuery>,
) -> ApiResult<axum::Json<Value>> {
    provider_profile(&state, id, query, caller.map(|caller| caller.member_id)).await
}

async fn dependent_provider(
    State(state): State<AppState>,
    family: FamilyMemberOfCaller,
    Path((_, id)): Path<(i64, i64)>,
    Query(query): Query<ProviderQuery>,
) -> ApiResult<axum::Json<Value>> {
    // The heart is the signed-in subscriber's, not the dependent's.
    provider_profile(&state, id, query, Some(family.subscriber.id)).await
}

/// The clinic profile of organisation `id` at the location asked for (else its first), with
/// the favourite flag of `viewer`.
async fn provider_profile(
    state: &AppState,
    id: i64,
    query: ProviderQuery,
    viewer: Option<i64>,
) -> ApiResult<axum::Json<Value>> {
    let snapshot = state.snapshot()?;
    let ordinal = organisation_location(&snapshot, id, query.location_id)?;
    Ok(axum::Json(clinic_profile(state, &snapshot, id, ordinal, viewer).await?))
}

/// Languages as profiles show them: code and name.
fn languages_json(languages: impl Iterator<Item = domain::listing::Language>) -> Vec<Value> {
    languages
        .map(|language| json!({ "code": language.code(), "name": language.name() }))
        .collect()
}

/// Miles from `origin` to a physical location; none for a virtual one or without an origin.
fn distance_from(origin: Option<LatLng>, location: &Location) -> Option<f64> {
    let position = LatLng {
        lat: location.lat,
        lng: location.lng,
    };
    origin
        .filter(|_| !location.is_virtual)
        .map(|origin| haversine_miles(origin, position))
}

async fn doctor(
    State(state): State<AppState>,
    MaybeCaller(caller): MaybeCaller,
    Path(id): Path<i64>,
    Query(query): Query<OriginQuery>,
) -> ApiResult<axum::Json<Value>> {
    let origin = query.origin()?;
    let snapshot = state.snapshot()?;
    let ordinal = snapshot
        .clinician_ordinal(id)
        .ok_or_else(|| ApiError::known(codes::PROVIDER_NOT_FOUND))?;
    let clinician = snapshot.clinician(ordinal);
    let (description, languages, telehealth, last_verified) =
        store::listings::clinician_profile(&state.pool, clinician.id)
            .await?
            .ok_or_else(|| ApiError::known(codes::PROVIDER_NOT_FOUND))?;
    let favorite = is_favourite(
        &state,
        caller.map(|caller| caller.member_id),
        Entity::Provider,
        clinician.id,
    )
    .await?;
    let clinics: Vec<Value> = snapshot
        .locations_of(ordinal)
        .iter()
        .map(|location_ordinal| {
            let location_ordinal = *location_ordinal as usize;
            let location = snapshot.location(location_ordinal);
            let distance = distance_from(origin, location);
            json!({
                "id": snapshot.organisation_of(location_ordinal).id,
                "locationId": location.id,
                "providerName": location.name,
                "locationName": location.location_name,
                "logo": location.logo,
                "address": format!("{}, {}, {} {}", location.address1, location.city, location.state, location.zip),
                "address1": location.address1,
                "city": location.city,
                "state": location.state,
                "zip": location.zip,
                "distance": distance,
                "homeCare": location.home_care,
                "isVirtualLocation": location.is_virtual,
                "careModality": location.modalities.as_displayed(location.is_virtual),
                "newPatients": location.accepting_new_patients,
                "coordinates": { "lat": location.lat, "lng": location.lng },
            })
        })
        .collect();
    // The ways the clinician sees members: those of the places they work, as each card shows them.
    let ways_of_care = snapshot
        .locations_of(ordinal)
        .iter()
        .map(|location_ordinal| {
            let location = snapshot.location(*location_ordinal as usize);
            location.modalities.as_displayed(location.is_virtual)
        })
        .reduce(|a, b| domain::catalogue::CareModalities {
            at_clinic: a.at_clinic || b.at_clinic,
            at_work: a.at_work || b.at_work,
            in_home: a.in_home || b.in_home,
            phone: a.phone || b.phone,
            text_chat: a.text_chat || b.text_chat,
            video: a.video || b.video,
        });
    Ok(axum::Json(json!({
        "id": clinician.id,
        "providerName": clinician.display_name(),
        "credentials": clinician.credentials,
        "category": clinician.category,
        "speciality": clinician.speciality,
        "newPatients": clinician.accepting_new_patients,
        "gender": clinician.gender.as_str(),
        "logo": clinician.logo,
        "favorite": favorite,
        "details": { "description": description, "gender": clinician.gender.as_str(), "NPI": clinician.npi },
        "languages": languages_json(languages.iter()),
        "telehealth": telehealth,
        "lastVerified": last_verified,
        "careModality": ways_of_care,
        "clinics": clinics,
    })))
}

/// The map's preview card of a location, with the signed-in member's heart and waitlist flag
/// as the search cards carry them.
async fn preview(
    State(state): State<AppState>,
    MaybeCaller(caller): MaybeCaller,
    Path(id): Path<i64>,
    Query(query): Query<OriginQuery>,
) -> ApiResult<Response> {
    let origin = query.origin()?;
    let snapshot = state.snapshot()?;
    let ordinal = snapshot
        .location_ordinal(id)
        .ok_or_else(|| ApiError::known(codes::PROVIDER_NOT_FOUND))?;
    let location = snapshot.location(ordinal);
    let viewer = caller.map(|caller| caller.member_id);
    let (favorite, waitlisted) = tokio::try_join!(
        is_favourite(&state, viewer, Entity::Location, location.id),
        is_waitlisted(&state, viewer, location.id),
    )?;
    let mut card = snapshot.location_item(ordinal, distance_from(origin, location));
    card.favorite = favorite;
    card.waitlisted = waitlisted;
    Ok(axum::Json(card).into_response())
}
