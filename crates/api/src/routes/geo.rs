//! Geocoding (offline by default, an outside geocoder when configured) and address
//! autocomplete (the gazetteer and the catalogue).

use axum::Router;
use axum::extract::State;
use axum::routing::{get, post};
use gazetteer::Geocoded;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::error::{ApiError, ApiResult};
use crate::error_codes as codes;
use crate::extract::{Json, Query};
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/member/app/market/locations/geocode", post(geocode))
        .route("/member/app/market/locations/autocomplete", get(autocomplete))
}

#[derive(Debug, Deserialize)]
pub struct GeocodeBody {
    address: Option<String>,
    lat: Option<f64>,
    lng: Option<f64>,
    /// With lat and lng: a point with no place near it (open water) answers the nearest ZIP,
    /// at that ZIP's centroid, instead of 404 (the map's Update Search).
    #[serde(default)]
    nearest: bool,
}

/// Answers in the shape of the maps geocoder the SPA was written for:
/// `results[0].geometry.location` and `formatted_address`.
async fn geocode(State(state): State<AppState>, Json(body): Json<GeocodeBody>) -> ApiResult<axum::Json<Value>> {
    let found = match (&body.address, body.lat, body.lng) {
        (_, Some(lat), Some(lng)) => match crate::extract::optional_position(Some(lat), Some(lng))? {
            Some(position) if body.nearest => state.geocoder.reverse_or_nearest(position).await,
            Some(position) => state.geocoder.reverse(position).await,
            None => None,
        },
        (Some(address), None, None) => {
            if !address_accepted(address) {
                return Err(ApiError::with_message(
                    codes::INVALID_PARAMETER,
                    "address must be 1 to 300 characters",
                ));
            }
            state.geocoder.geocode(address).await
        }
        _ => {
            return Err(ApiError::with_message(
                codes::INVALID_PARAMETER,
                "send an address, or both lat and lng",
            ));
        }
    };
    let found = found.ok_or_else(|| ApiError::known(codes::NO_PLACE))?;
    Ok(axum::Json(geocode_answer(&found)))
}

/// A place as the geocode call answers it.
pub fn geocode_answer(found: &Geocoded) -> Value {
    json!({
        "status": "OK",
        "results": [{
            "geometry": { "location": { "lat": found.position.lat, "lng": found.position.lng } },
            "formatted_address": found.formatted_address,
            "zipCode": found.zip,
            "state": found.state,
        }]
    })
}

/// Whether the geocode call takes this address (1 to 300 characters, not only spaces).
pub fn address_accepted(address: &str) -> bool {
    !address.trim().is_empty() && address.len() <= 300
}

#[derive(Debug, Deserialize)]
pub struct AutocompleteQuery {
    input: String,
}

/// Places first (ZIPs for digits, cities for words), then matching clinic names.
async fn autocomplete(
    State(state): State<AppState>,
    Query(query): Query<AutocompleteQuery>,
) -> ApiResult<axum::Json<Value>> {
    if query.input.len() > 100 {
        return Err(ApiError::with_message(
            codes::INVALID_PARAMETER,
            "input must be at most 100 characters",
        ));
    }
    let mut predictions: Vec<Value> = state
        .gazetteer
        .autocomplete(&query.input, 5)
        .into_iter()
        .map(|suggestion| {
            json!({
                "description": suggestion.label,
                "kind": suggestion.kind,
                "location": { "lat": suggestion.position.lat, "lng": suggestion.position.lng },
            })
        })
        .collect();
    let letters = query.input.trim().chars().filter(|c| c.is_alphabetic()).count();
    if letters >= 3 {
        let snapshot = state.snapshot()?;
        for clinic in snapshot.suggest_names(&query.input, 3)? {
            predictions.push(json!({
                "description": format!("{} — {}, {}", clinic.name, clinic.city, clinic.state),
                "kind": "clinic",
                "location": null,
                "id": clinic.id,
                "locationId": clinic.location_id,
            }));
        }
    }
    Ok(axum::Json(json!({ "predictions": predictions })))
}
