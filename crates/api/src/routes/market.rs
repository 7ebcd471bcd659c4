//! Marketplace search, pins, area pins and the filter lists.

use std::sync::LazyLock;

use axum::Router;
use axum::extract::State;
use axum::response::Response;
use axum::routing::{get, post};
use domain::SearchFilters;
use search::{Bounds, DEFAULT_PAGE_SIZE, Favourites, PinFilters, SearchError, SearchRequest, Snapshot};
use serde::Deserialize;
use serde_json::{Map, Value};

use crate::access::{FamilyMemberOfCaller, MaybeCaller};
use crate::error::{ApiError, ApiResult};
use crate::error_codes as codes;
use crate::extract::{Json, JsonObject, Query, plain_message};
use crate::metrics::{self, QueryClass};
use crate::services::favourites::favourites_of;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/member/app/market/search", post(search))
        .route(
            "/member/app/family/member/{dependent_id}/market",
            post(dependent_search),
        )
        .route("/member/app/market/location/pins", get(pins))
        .route("/member/app/market/location/areapins", get(area_pins))
        .route("/market/credentials/provider", get(credentials))
        .route("/market/specialities", get(specialities))
        .route("/market/organization/company/name", get(organisation_names))
        .route("/market/organization/from/alias", post(from_alias))
}

/// The search's query string; a parameter it does not name is refused.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SearchQuery {
    pub page: Option<u32>,
    pub limit: Option<u32>,
    pub lat: Option<f64>,
    pub lng: Option<f64>,
    pub company: Option<String>,
    pub user_zip_code: Option<String>,
}

/// A search body: `{"search": {"filters": {...}}}`, each level optional (left out, not null:
/// the document declares both levels objects). Anything else in it (a filter one level too
/// high, `{"search": {"distance": 5}}`, a misspelt key) is refused with the field's path rather
/// than ignored, so a misplaced filter cannot widen the answer.
pub type SearchBody = Map<String, Value>;

fn search_filters(mut body: SearchBody, snapshot: &Snapshot) -> ApiResult<SearchFilters> {
    if let Some(key) = body.keys().find(|key| *key != "search") {
        return Err(invalid_filters(format!(
            "{key} is not part of a search body: filters go in search.filters"
        )));
    }
    let mut search = match body.remove("search") {
        None => return Ok(SearchFilters::default()),
        Some(Value::Object(search)) => search,
        Some(_) => return Err(invalid_filters("search must be an object (or left out)".into())),
    };
    if let Some(key) = search.keys().find(|key| *key != "filters") {
        return Err(invalid_filters(format!(
            "search.{key} is not part of a search: filters go in search.filters"
        )));
    }
    match search.remove("filters") {
        None => Ok(SearchFilters::default()),
        Some(Value::Object(fields)) => read_filters(fields, "search.filters", snapshot),
        Some(_) => Err(invalid_filters("search.filters must be an object (or left out)".into())),
    }
}

/// Runs a search and serialises the answer while the snapshot it borrows from is held.
fn run_search(
    state: &AppState,
    query: SearchQuery,
    body: SearchBody,
    favourites: Option<&Favourites>,
) -> ApiResult<Response> {
    search_json(state, query, body, favourites).map(crate::respond::json_bytes)
}

/// The search call's answer as JSON: what `POST /member/app/market/search` answers for this
/// query and body (the server-painted first screen asks it in-process).
pub fn search_json(
    state: &AppState,
    query: SearchQuery,
    body: SearchBody,
    favourites: Option<&Favourites>,
) -> ApiResult<Vec<u8>> {
    let snapshot = state.snapshot()?;
    let mut filters = search_filters(body, &snapshot)?;
    if let Some(zip) = query.user_zip_code.filter(|zip| !zip.trim().is_empty()) {
        filters.user_zip_code = Some(zip);
    }
    let request = SearchRequest {
        filters,
        origin: crate::extract::optional_position(query.lat, query.lng)?,
        company_alias: query.company.filter(|alias| !alias.trim().is_empty()),
        page: query.page.unwrap_or(1),
        limit: query.limit.unwrap_or(DEFAULT_PAGE_SIZE),
    };
    let timer = metrics::timer();
    let (json, cards) = snapshot.search_json_counted_for(&request, &state.gazetteer, favourites)?;
    metrics::search_query(QueryClass::Search, timer, cards);
    Ok(json)
}

async fn search(
    State(state): State<AppState>,
    MaybeCaller(caller): MaybeCaller,
    Query(query): Query<SearchQuery>,
    JsonObject(body): JsonObject,
) -> ApiResult<Response> {
    let favourites = favourites_of(&state, caller.map(|caller| caller.member_id)).await?;
    run_search(&state, query, body, favourites.as_ref())
}

/// The same search on behalf of a dependent; the subscriber must be signed in and the
/// dependent must be theirs.
async fn dependent_search(
    State(state): State<AppState>,
    family: FamilyMemberOfCaller,
    Query(query): Query<SearchQuery>,
    JsonObject(body): JsonObject,
) -> ApiResult<Response> {
    let favourites = favourites_of(&state, Some(family.relative.id)).await?;
    run_search(&state, query, body, favourites.as_ref())
}

/// The keys of `search.filters`, as `SearchFilters` names them.
static FILTER_KEYS: LazyLock<Vec<String>> = LazyLock::new(|| match serde_json::to_value(SearchFilters::default()) {
    Ok(Value::Object(fields)) => fields.keys().cloned().collect(),
    _ => Vec::new(),
});

/// The filters that are lists: null is not a list, and is refused. Every other filter may be
/// null, read as left out (the document declares them nullable).
const LIST_FILTERS: [&str; 5] = [
    "selectedCredentials",
    "selectedSpecialities",
    "selectedGenders",
    "selectedGroupAndOrganizations",
    "serviceTypes",
];

fn invalid_filters(message: String) -> ApiError {
    SearchError::InvalidFilter(message).into()
}

/// Reads a search's filters object (`search.filters` of a search body, the pin calls' `filters`
/// parameter), naming the field at fault as `{path}.{key}`; a key that is not a search filter is
/// refused rather than ignored, so a misspelt filter cannot widen the answer. `employer` is a
/// company name, or an employer's id (a number) read as that employer's name.
fn read_filters(mut fields: Map<String, Value>, path: &str, snapshot: &Snapshot) -> ApiResult<SearchFilters> {
    if let Some(unknown) = fields.keys().find(|key| !FILTER_KEYS.contains(key)) {
        return Err(invalid_filters(format!("{path}.{unknown} is not a search filter")));
    }
    fields.retain(|key, value| !value.is_null() || LIST_FILTERS.contains(&key.as_str()));
    if let Some(Value::Number(number)) = fields.get("employer") {
        let employer = number
            .as_i64()
            .and_then(|id| snapshot.employers().iter().find(|employer| employer.id == id))
            .ok_or_else(|| invalid_filters(format!("{path}.employer: no employer has the id {number}")))?;
        fields.insert("employer".into(), Value::String(employer.company_name.clone()));
    }
    // Read in place: every search passes here, so the filters are not copied to be parsed.
    let filters = Value::Object(fields);
    SearchFilters::deserialize(&filters).map_err(|error| {
        // Read alone, the field at fault is the one that fails.
        let culprit = filters.as_object().into_iter().flatten().find_map(|(key, value)| {
            let alone = Map::from_iter([(key.clone(), value.clone())]);
            serde_json::from_value::<SearchFilters>(Value::Object(alone))
                .err()
                .map(|error| format!("{path}.{key}: {}", plain_message(&error.to_string())))
        });
        invalid_filters(culprit.unwrap_or_else(|| format!("{path}: {}", plain_message(&error.to_string()))))
    })
}

/// Reads the pin calls' `filters` parameter: the JSON text of a search's filters object.
fn parse_filters(text: &str, snapshot: &Snapshot) -> ApiResult<SearchFilters> {
    let fields: Map<String, Value> = serde_json::from_str(text).map_err(|error| {
        invalid_filters(format!(
            "filters must be the JSON of the search's filters object: {}",
            plain_message(&error.to_string())
        ))
    })?;
    read_filters(fields, "filters", snapshot)
}

/// Pin queries: a map box and the search's question. `filters` (the JSON of the search's
/// `search.filters`) and `company` are read as a search reads them; with `filters`, the older
/// `newPatients`, `serviceTypes` and `employer` parameters are ignored. `alias` is the older
/// name of `company`. A box needs no origin, so `lat`, `lng`, `zipCode` and `userZipCode` are
/// accepted and ignored (`lat` and `lng` must still be numbers, as documented); any other
/// parameter is refused.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PinQuery {
    nw_lng: f64,
    nw_lat: f64,
    se_lng: f64,
    se_lat: f64,
    #[serde(default)]
    filters: Option<String>,
    #[serde(default)]
    company: Option<String>,
    #[serde(default)]
    new_patients: Option<bool>,
    /// Comma-separated service type codes (BH is pediatrics).
    #[serde(default)]
    service_types: Option<String>,
    #[serde(default)]
    employer: Option<String>,
    #[serde(default)]
    alias: Option<String>,
    #[serde(default)]
    zoom: Option<u32>,
    #[serde(default, rename = "lat")]
    _lat: Option<f64>,
    #[serde(default, rename = "lng")]
    _lng: Option<f64>,
    #[serde(default, rename = "zipCode")]
    _zip_code: Option<String>,
    #[serde(default, rename = "userZipCode")]
    _user_zip_code: Option<String>,
}

impl PinQuery {
    fn bounds(&self) -> Bounds {
        Bounds {
            nw_lng: self.nw_lng,
            nw_lat: self.nw_lat,
            se_lng: self.se_lng,
            se_lat: self.se_lat,
        }
    }

    /// The search's question: `filters` when sent, else the older individual parameters.
    fn filters(&self, snapshot: &Snapshot) -> ApiResult<PinFilters> {
        let company = self.company.as_deref().map(str::trim).filter(|alias| !alias.is_empty());
        let alias = self.alias.as_deref().map(str::trim).filter(|alias| !alias.is_empty());
        if let (Some(company), Some(alias)) = (company, alias)
            && company != alias
        {
            return Err(SearchError::InvalidParameter(format!(
                "company {company:?} and alias {alias:?} name different companies"
            ))
            .into());
        }
        let filters = match &self.filters {
            Some(text) => parse_filters(text, snapshot)?,
            None => SearchFilters {
                new_patients: self.new_patients.unwrap_or(false),
                service_types: self
                    .service_types
                    .iter()
                    .flat_map(|codes| codes.split(','))
                    .map(str::trim)
                    .filter(|code| !code.is_empty())
                    .map(str::to_owned)
                    .collect(),
                employer: self.employer.clone().filter(|name| !name.trim().is_empty()),
                ..SearchFilters::default()
            },
        };
        Ok(PinFilters {
            filters,
            company_alias: company.or(alias).map(str::to_owned),
        })
    }
}

async fn pins(
    State(state): State<AppState>,
    MaybeCaller(caller): MaybeCaller,
    Query(query): Query<PinQuery>,
) -> ApiResult<Response> {
    let snapshot = state.snapshot()?;
    let filters = query.filters(&snapshot)?;
    let favourites = favourites_of(&state, caller.map(|caller| caller.member_id)).await?;
    let timer = metrics::timer();
    let (json, pins) = snapshot.pins_json_for(query.bounds(), &filters, favourites.as_ref())?;
    metrics::search_query(QueryClass::Pins, timer, pins);
    Ok(crate::respond::json_bytes(json))
}

async fn area_pins(
    State(state): State<AppState>,
    MaybeCaller(caller): MaybeCaller,
    Query(query): Query<PinQuery>,
) -> ApiResult<Response> {
    let zoom = query
        .zoom
        .ok_or_else(|| ApiError::with_message(codes::INVALID_QUERY, "zoom is required"))?;
    let snapshot = state.snapshot()?;
    let filters = query.filters(&snapshot)?;
    // Clusters carry no flags: the caller's favourites are read only to keep them alone.
    let favourites = match caller {
        Some(caller) if filters.filters.favorites => favourites_of(&state, Some(caller.member_id)).await?,
        _ => None,
    };
    let timer = metrics::timer();
    let answer = snapshot.area_pins_for(query.bounds(), zoom, &filters, favourites.as_ref())?;
    metrics::search_query(QueryClass::AreaPins, timer, answer.areas.len());
    Ok(crate::respond::json(&answer, 256 * (answer.areas.len() + 1)))
}

#[derive(Debug, Deserialize)]
pub struct AliasQuery {
    alias: Option<String>,
    search: Option<String>,
    limit: Option<usize>,
}

impl AliasQuery {
    fn alias(&self) -> Option<&str> {
        self.alias.as_deref().map(str::trim).filter(|alias| !alias.is_empty())
    }
}

async fn credentials(
    State(state): State<AppState>,
    Query(query): Query<AliasQuery>,
) -> ApiResult<axum::Json<Vec<String>>> {
    Ok(axum::Json(state.snapshot()?.credential_list(query.alias())?))
}

async fn specialities(
    State(state): State<AppState>,
    Query(query): Query<AliasQuery>,
) -> ApiResult<axum::Json<Vec<String>>> {
    Ok(axum::Json(state.snapshot()?.speciality_list(query.alias())?))
}

/// Organisation names are many at scale: the list is capped (default 100, at most 500).
async fn organisation_names(
    State(state): State<AppState>,
    Query(query): Query<AliasQuery>,
) -> ApiResult<axum::Json<Vec<String>>> {
    let limit = query.limit.unwrap_or(100);
    if !(1..=500).contains(&limit) {
        return Err(ApiError::with_message(
            codes::INVALID_PARAMETER,
            "limit must be between 1 and 500",
        ));
    }
    let search = query.search.as_deref().filter(|text| text.len() <= 100);
    Ok(axum::Json(state.snapshot()?.organisation_names(
        query.alias(),
        search,
        limit,
    )?))
}

#[derive(Debug, Deserialize)]
pub struct AliasBody {
    company: String,
}

async fn from_alias(
    State(state): State<AppState>,
    Json(body): Json<AliasBody>,
) -> ApiResult<axum::Json<serde_json::Value>> {
    let answer = alias_answer(&*state.snapshot()?, &body.company)
        .ok_or_else(|| ApiError::NotFound(format!("No company uses the address {:?}", body.company.trim())))?;
    Ok(axum::Json(answer))
}

/// The employer behind a company link, as `POST /market/organization/from/alias` answers it.
pub fn alias_answer(snapshot: &Snapshot, company: &str) -> Option<Value> {
    let employer = snapshot.employer_by_alias(company)?;
    Some(serde_json::json!({
        "companyName": employer.company_name,
        "alias": employer.alias,
        "status": employer.status.as_str(),
        "id": employer.id,
    }))
}
