//! A provider organisation's own listings (docs/listings-contract.md): reading them, editing a
//! location or a clinician with only the fields that change, and "Everything is correct".
//! Each write is a transaction in `store::listings` that the servers' snapshots patch in.

use axum::Router;
use axum::extract::State;
use axum::routing::{get, patch, post};
use domain::listing::{ClinicianPatch, LocationPatch, attestation_due};
use serde_json::{Value, json};
use store::listings::{ClinicianListing, EditRefusal, Edited, LocationListing};

use crate::access::ProviderCaller;
use crate::error::{ApiError, ApiResult};
use crate::error_codes as codes;
use crate::extract::{JsonObject, Path};
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/dpcproviders/listings", get(listings))
        .route("/dpcproviders/listings/attest", post(attest))
        .route("/dpcproviders/locations/{id}", patch(edit_location))
        .route("/dpcproviders/clinicians/{id}", patch(edit_clinician))
}

/// Who an audit row names for a provider account.
fn actor(provider: ProviderCaller) -> String {
    format!("provider:{}", provider.account_id)
}

fn location_json(location: &LocationListing, now: chrono::DateTime<chrono::Utc>) -> Value {
    json!({
        "id": location.id,
        "name": location.name,
        "locationName": location.location_name,
        "address1": location.address1,
        "city": location.city,
        "state": location.state,
        "zipCode": location.zip,
        "isVirtualLocation": location.is_virtual,
        "acceptingNewPatients": location.accepting_new_patients,
        "panelCapacity": location.panel_capacity,
        "panel": { "members": location.panel_members, "full": location.panel_full },
        "phone": domain::accounts::displayed_phone(&location.phone),
        "website": location.website,
        "hours": location.hours.as_ref().map(domain::listing::WeeklyHours::to_json),
        "timeZone": location.time_zone.as_str(),
        "languages": location.languages.codes(),
        "accessibility": location.accessibility.codes(),
        "telehealth": location.telehealth,
        "services": location.services,
        "pediatricAges": location.pediatric_ages,
        "lastVerified": location.last_verified,
        "due": attestation_due(location.last_verified, now),
    })
}

fn clinician_json(clinician: &ClinicianListing, now: chrono::DateTime<chrono::Utc>) -> Value {
    json!({
        "id": clinician.id,
        "name": format!("{} {}", clinician.first_name, clinician.last_name),
        "credentials": clinician.credentials,
        "npi": clinician.npi,
        "acceptingNewPatients": clinician.accepting_new_patients,
        "languages": clinician.languages.codes(),
        "telehealth": clinician.telehealth,
        "locationIds": clinician.location_ids,
        "lastVerified": clinician.last_verified,
        "due": attestation_due(clinician.last_verified, now),
    })
}

/// The organisation's listings document.
async fn listings_document(state: &AppState, provider: ProviderCaller) -> ApiResult<Value> {
    let now = state.config.clock.now();
    let (locations, clinicians) = store::listings::of_organisation(&state.pool, provider.organisation_id).await?;
    let organisation = store::providers::organisation_name(&state.pool, provider.organisation_id).await?;
    let due = locations
        .iter()
        .map(|location| location.last_verified)
        .chain(clinicians.iter().map(|clinician| clinician.last_verified))
        .any(|verified| attestation_due(verified, now));
    Ok(json!({
        "organisation": { "id": provider.organisation_id, "name": organisation },
        "due": due,
        "locations": locations.iter().map(|location| location_json(location, now)).collect::<Vec<_>>(),
        "clinicians": clinicians.iter().map(|clinician| clinician_json(clinician, now)).collect::<Vec<_>>(),
    }))
}

async fn listings(State(state): State<AppState>, provider: ProviderCaller) -> ApiResult<axum::Json<Value>> {
    Ok(axum::Json(listings_document(&state, provider).await?))
}

/// "Everything is correct": every listing of the organisation confirmed now.
async fn attest(
    State(state): State<AppState>,
    provider: ProviderCaller,
    JsonObject(body): JsonObject,
) -> ApiResult<axum::Json<Value>> {
    if let Some(field) = body.keys().next() {
        return Err(ApiError::with_message(
            codes::UNKNOWN_FIELD,
            format!("{field} is not a field of this call: send {{}}"),
        )
        .with_details(json!({ "field": field })));
    }
    let now = state.config.clock.now();
    let confirmed = store::listings::confirm_all(&state.pool, &actor(provider), provider.organisation_id, now).await?;
    tracing::info!(organisation = provider.organisation_id, confirmed, "listings confirmed");
    Ok(axum::Json(listings_document(&state, provider).await?))
}

fn refusal(refusal: EditRefusal) -> ApiError {
    match refusal {
        EditRefusal::PanelFull { members, capacity } => ApiError::with_message(
            codes::PANEL_FULL,
            format!(
                "The panel is full ({members} of {capacity} members): raise the panel capacity to accept new patients."
            ),
        )
        .with_details(json!({ "field": "acceptingNewPatients" })),
        EditRefusal::PediatricAgesNeedService => ApiError::with_message(
            codes::INVALID_VALUE,
            "pediatricAges needs the Pediatric care service (BH) in services",
        )
        .with_details(json!({ "field": "pediatricAges" })),
        EditRefusal::ForeignLocation { index, id } => ApiError::with_message(
            codes::INVALID_VALUE,
            format!("locationIds[{index}]: location {id} is not one of your organisation's locations"),
        )
        .with_details(json!({ "field": format!("locationIds[{index}]") })),
    }
}

async fn edit_location(
    State(state): State<AppState>,
    provider: ProviderCaller,
    Path(id): Path<i64>,
    JsonObject(body): JsonObject,
) -> ApiResult<axum::Json<Value>> {
    let patch = LocationPatch::parse(&body)?;
    let now = state.config.clock.now();
    match store::listings::edit_location(&state.pool, &actor(provider), provider.organisation_id, id, &patch, now)
        .await?
    {
        Edited::NotFound => Err(ApiError::known(codes::LISTING_NOT_FOUND)),
        Edited::Refused(why) => Err(refusal(why)),
        Edited::Done(location) => Ok(axum::Json(location_json(&location, now))),
    }
}

async fn edit_clinician(
    State(state): State<AppState>,
    provider: ProviderCaller,
    Path(id): Path<i64>,
    JsonObject(body): JsonObject,
) -> ApiResult<axum::Json<Value>> {
    let patch = ClinicianPatch::parse(&body)?;
    let now = state.config.clock.now();
    match store::listings::edit_clinician(&state.pool, &actor(provider), provider.organisation_id, id, &patch, now)
        .await?
    {
        Edited::NotFound => Err(ApiError::known(codes::LISTING_NOT_FOUND)),
        Edited::Refused(why) => Err(refusal(why)),
        Edited::Done(clinician) => Ok(axum::Json(clinician_json(&clinician, now))),
    }
}
