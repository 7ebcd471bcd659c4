//! Queries against a snapshot: search, pins, area pins, filter lists and name suggestions.

use std::cell::RefCell;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashSet};

use domain::{
    CareModalities, Gender, LatLng, MAX_SEARCH_MILES, PEDIATRICS_SERVICE_TYPE, SearchFilters, ZipCode, haversine_miles,
};
use gazetteer::Gazetteer;
use serde::{Deserialize, Serialize};

use crate::SearchError;
use crate::bitset::Bitset;
use crate::cards::CardKey;
use crate::snapshot::Snapshot;
use crate::spatial::{CellCount, MORTON_LEVELS, MapBox, chord_2, chord_limit, mercator};
use crate::text::{Fields, TextQuery};

/// The category shown on clinic cards.
const LOCATION_CATEGORY: &str = "Direct Primary Care";

/// The page size the marketplace uses.
pub const DEFAULT_PAGE_SIZE: u32 = 6;
/// The largest page a caller may ask for.
pub const MAX_PAGE_SIZE: u32 = 50;
/// Pages beyond this are refused; nobody pages 10,000 deep on purpose.
pub const MAX_PAGE: u32 = 10_000;
/// The clinicians array of a search answer holds at most this many (4 local pages of 6): a
/// smaller answer for every search; people narrow with filters rather than page further.
pub const MAX_CLINICIANS: usize = 24;
/// Locations walked, nearest first, to fill the clinicians array.
const CLINICIAN_SCAN_LOCATIONS: usize = 600;
/// A pins answer lists at most this many; past it, the client asks for area pins instead.
pub const MAX_PINS: usize = 2_000;
/// Area-pin answers are cut to at most this many cells by coarsening the grid.
pub const MAX_AREA_CELLS: f64 = 4_096.0;
/// Highest map zoom accepted.
pub const MAX_ZOOM: u32 = 22;
/// Values accepted in each list filter.
pub const MAX_LIST_VALUES: usize = 50;
/// Up to this many matches within the radius are gathered from the Morton cells and sorted;
/// more are walked nearest-first through the R-tree.
const GATHER_MATCHES_BELOW: usize = 2_048;

/// A marketplace search.
#[derive(Debug, Clone, Default)]
pub struct SearchRequest {
    pub filters: SearchFilters,
    pub origin: Option<LatLng>,
    /// The custom company URL alias, restricting results to that employer's network.
    pub company_alias: Option<String>,
    /// 1-based.
    pub page: u32,
    pub limit: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Coordinates {
    pub lat: f64,
    pub lng: f64,
}

impl From<LatLng> for Coordinates {
    fn from(position: LatLng) -> Self {
        Self {
            lat: position.lat,
            lng: position.lng,
        }
    }
}

/// A location's services, serialised as `[{"serviceTypeCode": ".."}]` straight from the row.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Services<'a>(pub &'a [String]);

impl Serialize for Services<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{SerializeMap, SerializeSeq};
        struct Service<'a>(&'a str);
        impl Serialize for Service<'_> {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                let mut map = serializer.serialize_map(Some(1))?;
                map.serialize_entry("serviceTypeCode", self.0)?;
                map.end()
            }
        }
        let mut sequence = serializer.serialize_seq(Some(self.0.len()))?;
        for code in self.0 {
            sequence.serialize_element(&Service(code))?;
        }
        sequence.end()
    }
}

/// Distances are written to a ten-thousandth of a mile (about half a foot): the SPA shows two
/// decimals, and full precision made every card some fifteen bytes longer.
pub fn round_miles(miles: f64) -> f64 {
    (miles * 10_000.0).round() / 10_000.0
}

fn serialize_miles<S: serde::Serializer>(miles: &Option<f64>, serializer: S) -> Result<S::Ok, S::Error> {
    match miles {
        Some(miles) => serializer.serialize_f64(round_miles(*miles)),
        None => serializer.serialize_none(),
    }
}

/// A card's name: a clinic's, or a clinician's first and last name, joined only when written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CardName<'a> {
    Place(&'a str),
    Person { first: &'a str, last: &'a str },
}

impl std::fmt::Display for CardName<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Place(name) => f.write_str(name),
            Self::Person { first, last } => write!(f, "{first} {last}"),
        }
    }
}

impl Serialize for CardName<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Place(name) => serializer.serialize_str(name),
            Self::Person { .. } => serializer.collect_str(self),
        }
    }
}

/// The signed-in caller's favourite clinic locations and clinicians, by id.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Favourites {
    pub location_ids: HashSet<i64>,
    pub clinician_ids: HashSet<i64>,
}

/// Where the clinician list looks: the matching places (nearest first, `ranked` when already
/// sorted) and, for the favourites filter, the only clinicians it may show.
struct Scan<'a> {
    places: &'a Bitset,
    ranked: Option<&'a Ranked>,
    only: Option<&'a HashSet<i64>>,
}

/// Gathered matches, put in nearest-first order only as far as they are read: a page of six
/// and the few dozen clinics the clinician list looks at need a fraction of a full sort.
struct Ranked {
    sorted: RefCell<Vec<usize>>,
    pending: RefCell<BinaryHeap<Reverse<(u64, usize)>>>,
}

impl Ranked {
    /// The match at `position` in nearest-first order (ties by ordinal).
    fn get(&self, position: usize) -> Option<usize> {
        let mut sorted = self.sorted.borrow_mut();
        while sorted.len() <= position {
            let Reverse((_, ordinal)) = self.pending.borrow_mut().pop()?;
            sorted.push(ordinal);
        }
        Some(sorted[position])
    }
}

/// A card of the marketplace: a clinic location or a clinician. It borrows from the snapshot,
/// so a page of cards costs no copying; serialise it while the snapshot is held.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MarketItem<'a> {
    /// "location" for clinics, "provider" for clinicians.
    pub entity: &'static str,
    /// The organisation id for a location, the clinician id for a clinician.
    pub id: i64,
    pub location_id: i64,
    pub location_name: &'a str,
    pub name: CardName<'a>,
    pub organization_name: &'a str,
    pub credentials: &'a str,
    pub address: &'a str,
    pub city: &'a str,
    pub state: &'a str,
    pub zip_code: &'a str,
    pub logo: &'a str,
    pub coordinates: Coordinates,
    /// Miles from the search origin; absent for virtual locations.
    #[serde(serialize_with = "serialize_miles")]
    pub distance: Option<f64>,
    pub gender: Option<&'static str>,
    pub new_patients: bool,
    pub is_virtual_location: bool,
    pub home_care: bool,
    pub care_modality: CareModalities,
    pub speciality: &'a str,
    pub works_at: Option<&'a str>,
    pub category: &'a str,
    pub services: Services<'a>,
    /// Whether the signed-in caller marked it as a favourite; set by the caller of the search.
    pub favorite: bool,
    /// The pre-rendered card this item is written from (see [`Snapshot::search_json`]).
    #[serde(skip)]
    pub card: CardKey,
}

/// A search answer: a page of clinics and the nearest matching clinicians.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchResponse<'a> {
    pub clinics: Vec<MarketItem<'a>>,
    pub clinicians: Vec<MarketItem<'a>>,
    pub total_pages: u32,
    pub current_page: u32,
    pub total_results: usize,
    /// Where distances are measured from.
    pub origin: Coordinates,
    pub radius_miles: f64,
}

/// A map box: north-west and south-east corners. A box whose west edge is east of its east
/// edge crosses the antimeridian.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Bounds {
    pub nw_lng: f64,
    pub nw_lat: f64,
    pub se_lng: f64,
    pub se_lat: f64,
}

impl Bounds {
    pub fn validate(self) -> Result<Self, SearchError> {
        let values = [self.nw_lng, self.nw_lat, self.se_lng, self.se_lat];
        if values.iter().any(|value| !value.is_finite()) {
            return Err(SearchError::InvalidBounds(
                "every corner must be a finite number".into(),
            ));
        }
        if self.nw_lat.abs() > 90.0 || self.se_lat.abs() > 90.0 {
            return Err(SearchError::InvalidBounds("latitudes must be within -90 and 90".into()));
        }
        if self.nw_lng.abs() > 180.0 || self.se_lng.abs() > 180.0 {
            return Err(SearchError::InvalidBounds(
                "longitudes must be within -180 and 180".into(),
            ));
        }
        if self.nw_lat < self.se_lat {
            return Err(SearchError::InvalidBounds("nwLat must not be south of seLat".into()));
        }
        Ok(self)
    }

    /// The box as one or two boxes that do not wrap (two when it crosses the antimeridian).
    pub fn map_boxes(self) -> Vec<MapBox> {
        let (south, north) = (self.se_lat, self.nw_lat);
        if self.nw_lng <= self.se_lng {
            vec![MapBox {
                west: self.nw_lng,
                south,
                east: self.se_lng,
                north,
            }]
        } else {
            vec![
                MapBox {
                    west: self.nw_lng,
                    south,
                    east: 180.0,
                    north,
                },
                MapBox {
                    west: -180.0,
                    south,
                    east: self.se_lng,
                    north,
                },
            ]
        }
    }

    pub fn contains(self, position: LatLng) -> bool {
        self.map_boxes().iter().any(|map_box| map_box.contains(position))
    }
}

/// The filters pins and area pins honour.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PinFilters {
    pub new_patients: bool,
    pub service_types: Vec<String>,
    pub employer: Option<String>,
    pub company_alias: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Pin {
    pub id: i64,
    pub location_id: i64,
    pub name: String,
    pub coordinates: Coordinates,
    pub new_patients: bool,
    /// Whether the signed-in caller marked the location as a favourite; set by the caller.
    pub favorite: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PinsResponse {
    pub pins: Vec<Pin>,
    /// True when more than `limit` locations match: `pins` is then empty and the client should
    /// ask for area pins.
    pub over_limit: bool,
    pub limit: usize,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CellBounds {
    pub nw_lng: f64,
    pub nw_lat: f64,
    pub se_lng: f64,
    pub se_lat: f64,
}

/// A cluster of locations in one grid cell.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AreaPin {
    pub coordinates: Coordinates,
    pub count: usize,
    pub new_patients: usize,
    pub bounds: CellBounds,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AreaPinsResponse {
    pub areas: Vec<AreaPin>,
    pub total: usize,
    /// The grid level the cells come from (a Web Mercator zoom).
    pub cell_level: u32,
}

/// A name suggestion from the catalogue.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NameSuggestion {
    pub id: i64,
    pub location_id: i64,
    pub name: String,
    pub location_name: String,
    pub city: String,
    pub state: String,
}

/// What a clinician must satisfy to be listed (and, through them, a location to match).
#[derive(Debug, Default)]
struct ClinicianRule {
    credentials: Option<HashSet<u16>>,
    specialities: Option<HashSet<u16>>,
    genders: Option<HashSet<Gender>>,
}

impl ClinicianRule {
    fn category_count(&self) -> usize {
        usize::from(self.credentials.is_some())
            + usize::from(self.specialities.is_some())
            + usize::from(self.genders.is_some())
    }

    fn accepts(&self, snapshot: &Snapshot, clinician: usize) -> bool {
        let core = &snapshot.core;
        self.credentials
            .as_ref()
            .is_none_or(|set| set.contains(&core.clinician_credential[clinician]))
            && self
                .specialities
                .as_ref()
                .is_none_or(|set| set.contains(&core.clinician_speciality[clinician]))
            && self
                .genders
                .as_ref()
                .is_none_or(|set| set.contains(&snapshot.clinician(clinician).gender))
    }
}

/// A compiled filter: the bitset of admissible locations plus what the clinicians list needs.
struct CompiledFilter {
    locations: Bitset,
    rule: ClinicianRule,
    text: Option<TextQuery>,
}

fn check_list(name: &str, values: &[String]) -> Result<(), SearchError> {
    if values.len() > MAX_LIST_VALUES {
        return Err(SearchError::InvalidFilter(format!(
            "{name} accepts at most {MAX_LIST_VALUES} values"
        )));
    }
    if values.iter().any(|value| value.len() > 200) {
        return Err(SearchError::InvalidFilter(format!(
            "{name} values must be at most 200 characters"
        )));
    }
    Ok(())
}

impl Snapshot {
    /// Resolves the search origin: lat/lng, else the userZipCode centroid, else the zipCode
    /// centroid.
    pub fn resolve_origin(
        &self,
        origin: Option<LatLng>,
        filters: &SearchFilters,
        gazetteer: &Gazetteer,
    ) -> Result<LatLng, SearchError> {
        if let Some(origin) = origin {
            return Ok(origin);
        }
        for zip_text in [&filters.user_zip_code, &filters.zip_code].into_iter().flatten() {
            if zip_text.trim().is_empty() {
                continue;
            }
            let zip = ZipCode::parse(zip_text).ok_or_else(|| {
                SearchError::InvalidFilter(format!("{zip_text:?} is not a ZIP code (12345 or 12345-6789)"))
            })?;
            let place = gazetteer
                .zip(zip)
                .ok_or_else(|| SearchError::UnknownZipCode(zip.to_string()))?;
            return Ok(place.position);
        }
        Err(SearchError::NoOrigin)
    }

    fn organisation_restriction(
        &self,
        employer: Option<&str>,
        alias: Option<&str>,
    ) -> Result<Option<Bitset>, SearchError> {
        let mut restriction: Option<Bitset> = None;
        if let Some(alias) = alias.map(str::trim).filter(|alias| !alias.is_empty()) {
            let employer = self
                .employer_by_alias(alias)
                .ok_or_else(|| SearchError::InvalidFilter(format!("unknown company alias {alias:?}")))?;
            if let Some(network) = self.employer_network(employer) {
                restriction = Some(network.clone());
            }
        }
        // An unknown employer name is an inactive employer with no network: no restriction.
        if let Some(employer) = employer.and_then(|name| self.employer_by_name(name))
            && let Some(network) = self.employer_network(employer)
        {
            match &mut restriction {
                Some(existing) => existing.intersect_with(network),
                None => restriction = Some(network.clone()),
            }
        }
        Ok(restriction)
    }

    fn compile(&self, filters: &SearchFilters, alias: Option<&str>) -> Result<CompiledFilter, SearchError> {
        check_list("selectedCredentials", &filters.selected_credentials)?;
        check_list("selectedSpecialities", &filters.selected_specialities)?;
        check_list("selectedGenders", &filters.selected_genders)?;
        check_list(
            "selectedGroupAndOrganizations",
            &filters.selected_group_and_organizations,
        )?;
        check_list("serviceTypes", &filters.service_types)?;
        let len = self.location_count();
        let mut locations = Bitset::full(len);
        if filters.new_patients {
            locations.intersect_with(&self.bits.accepting);
        }
        let mut service_types: Vec<&str> = filters.service_types.iter().map(|code| code.trim()).collect();
        if filters.pediatrics {
            service_types.push(PEDIATRICS_SERVICE_TYPE);
        }
        for code in service_types {
            match self.bits.service_types.get(code) {
                Some(bits) => locations.intersect_with(bits),
                None => locations = Bitset::empty(len),
            }
        }
        if let Some(restriction) = self.organisation_restriction(filters.employer.as_deref(), alias)? {
            locations.intersect_with(&restriction);
        }
        if !filters.selected_group_and_organizations.is_empty() {
            let mut chosen = Bitset::empty(len);
            for name in &filters.selected_group_and_organizations {
                for organisation in self.organisations_named(name) {
                    for location in self.core.organisation_locations.get(*organisation as usize) {
                        chosen.insert(*location as usize);
                    }
                }
            }
            locations.intersect_with(&chosen);
        }

        let rule = self.clinician_rule(filters)?;
        match rule.category_count() {
            0 => {}
            1 => {
                let mut with_clinician = Bitset::empty(len);
                let sources: Vec<&Bitset> = if let Some(set) = &rule.credentials {
                    set.iter()
                        .map(|code| &self.core.credential_locations[*code as usize])
                        .collect()
                } else if let Some(set) = &rule.specialities {
                    set.iter()
                        .map(|code| &self.core.speciality_locations[*code as usize])
                        .collect()
                } else {
                    rule.genders
                        .iter()
                        .flatten()
                        .map(|gender| &self.core.gender_locations[usize::from(*gender == Gender::M)])
                        .collect()
                };
                for source in sources {
                    with_clinician.union_with(source);
                }
                locations.intersect_with(&with_clinician);
            }
            _ => {
                // Several clinician filters must hold for the same clinician.
                let mut with_clinician = Bitset::empty(len);
                for clinician in 0..self.clinician_count() {
                    if rule.accepts(self, clinician) {
                        for location in self.locations_of(clinician) {
                            with_clinician.insert(*location as usize);
                        }
                    }
                }
                locations.intersect_with(&with_clinician);
            }
        }

        let text = match &filters.search_by_name {
            Some(text) => TextQuery::parse(text)?,
            None => None,
        };
        if let Some(text) = &text {
            locations.intersect_with(&*self.core.location_text.matches(text, Fields::All)?);
        }
        Ok(CompiledFilter { locations, rule, text })
    }

    fn clinician_rule(&self, filters: &SearchFilters) -> Result<ClinicianRule, SearchError> {
        let codes = |values: &[String], names: &[String]| -> Option<HashSet<u16>> {
            (!values.is_empty()).then(|| {
                values
                    .iter()
                    .filter_map(|value| names.iter().position(|name| name.eq_ignore_ascii_case(value.trim())))
                    .map(|code| code as u16)
                    .collect()
            })
        };
        let genders = if filters.selected_genders.is_empty() {
            None
        } else {
            let parsed = filters
                .selected_genders
                .iter()
                .map(|gender| {
                    Gender::parse(gender).ok_or_else(|| {
                        SearchError::InvalidFilter(format!("selectedGenders accepts F and M, not {gender:?}"))
                    })
                })
                .collect::<Result<HashSet<_>, _>>()?;
            Some(parsed)
        };
        Ok(ClinicianRule {
            credentials: codes(&filters.selected_credentials, &self.core.credential_names),
            specialities: codes(&filters.selected_specialities, &self.core.speciality_names),
            genders,
        })
    }

    /// Runs a marketplace search for someone signed out.
    pub fn search(&self, request: &SearchRequest, gazetteer: &Gazetteer) -> Result<SearchResponse<'_>, SearchError> {
        self.search_for(request, gazetteer, None)
    }

    /// Runs a marketplace search; `favourites` are the signed-in caller's, which flag cards and
    /// are all the `favorites` filter lets through (nothing, signed out).
    pub fn search_for(
        &self,
        request: &SearchRequest,
        gazetteer: &Gazetteer,
        favourites: Option<&Favourites>,
    ) -> Result<SearchResponse<'_>, SearchError> {
        if request.page == 0 || request.page > MAX_PAGE {
            return Err(SearchError::InvalidParameter(format!(
                "page must be between 1 and {MAX_PAGE}"
            )));
        }
        if request.limit == 0 || request.limit > MAX_PAGE_SIZE {
            return Err(SearchError::InvalidParameter(format!(
                "limit must be between 1 and {MAX_PAGE_SIZE}"
            )));
        }
        let origin = self.resolve_origin(request.origin, &request.filters, gazetteer)?;
        let radius = request.filters.search_distance.radius_miles().min(MAX_SEARCH_MILES);
        let mut filter = self.compile(&request.filters, request.company_alias.as_deref())?;
        let no_favourites = Favourites::default();
        let favourites_only = request.filters.favorites.then(|| favourites.unwrap_or(&no_favourites));
        // Favourite clinicians are found wherever they work, not only at favourite clinics.
        let clinician_places = favourites_only.map(|favourites| {
            let everywhere = filter.locations.clone();
            let mut chosen = Bitset::empty(self.location_count());
            for ordinal in favourites
                .location_ids
                .iter()
                .filter_map(|id| self.location_ordinal(*id))
            {
                chosen.insert(ordinal);
            }
            filter.locations.intersect_with(&chosen);
            everywhere
        });
        let (physical_total, gathered) =
            self.core
                .morton
                .count_and_gather_within(origin, radius, &filter.locations, GATHER_MATCHES_BELOW);
        let ranked = gathered.map(|found| self.rank_by_distance(origin, found));
        let origin_state = self.origin_state(&request.filters, origin, gazetteer);
        // Listed by name, after every physical location.
        let virtual_matches: Vec<usize> = origin_state
            .and_then(|state| self.core.virtual_by_state.get(&state))
            .into_iter()
            .flatten()
            .map(|ordinal| *ordinal as usize)
            .filter(|ordinal| filter.locations.contains(*ordinal))
            .collect();

        let total = physical_total + virtual_matches.len();
        let limit = request.limit as usize;
        let offset = (request.page as usize - 1) * limit;
        let wanted_physical = (offset + limit).min(physical_total);
        let nearest: Vec<(usize, f64)> = if wanted_physical > offset {
            self.nearest_iter(origin, radius, &filter.locations, ranked.as_ref())
                .take(wanted_physical)
                .collect()
        } else {
            Vec::new()
        };

        let mut clinics: Vec<MarketItem<'_>> = nearest
            .iter()
            .skip(offset)
            .take(limit)
            .map(|(ordinal, distance)| self.location_item(*ordinal, Some(*distance)))
            .collect();
        if clinics.len() < limit {
            let virtual_offset = offset.saturating_sub(physical_total);
            clinics.extend(
                virtual_matches
                    .iter()
                    .skip(virtual_offset)
                    .take(limit - clinics.len())
                    .map(|ordinal| self.location_item(*ordinal, None)),
            );
        }
        let scan = match &clinician_places {
            Some(places) => Scan {
                places,
                ranked: None,
                only: favourites_only.map(|favourites| &favourites.clinician_ids),
            },
            None => Scan {
                places: &filter.locations,
                ranked: ranked.as_ref(),
                only: None,
            },
        };
        let mut clinicians = self.nearest_clinicians(origin, radius, &filter, scan, &virtual_matches)?;
        if let Some(favourites) = favourites {
            for clinic in &mut clinics {
                clinic.favorite = favourites.location_ids.contains(&clinic.location_id);
            }
            for clinician in &mut clinicians {
                clinician.favorite = favourites.clinician_ids.contains(&clinician.id);
            }
        }
        let total_pages = total.div_ceil(limit) as u32;
        Ok(SearchResponse {
            clinics,
            clinicians,
            total_pages,
            current_page: request.page,
            total_results: total,
            origin: origin.into(),
            radius_miles: radius,
        })
    }

    fn origin_state(&self, filters: &SearchFilters, origin: LatLng, gazetteer: &Gazetteer) -> Option<String> {
        let from_zip = filters
            .user_zip_code
            .iter()
            .chain(&filters.zip_code)
            .filter_map(|zip| ZipCode::parse(zip))
            .find_map(|zip| gazetteer.zip(zip))
            .map(|place| place.state.clone());
        from_zip.or_else(|| gazetteer.nearest_zip(origin).map(|place| place.state.clone()))
    }

    /// Orders gathered matches nearest first (by chord, which orders like great-circle distance).
    fn rank_by_distance(&self, origin: LatLng, found: Vec<usize>) -> Ranked {
        let morton = &self.core.morton;
        let origin_unit = origin.unit_vector();
        // A squared chord is never negative, and non-negative floats order like their bits.
        let by_chord: Vec<Reverse<(u64, usize)>> = found
            .into_iter()
            .map(|ordinal| Reverse((chord_2(morton.unit(ordinal), &origin_unit).to_bits(), ordinal)))
            .collect();
        Ranked {
            sorted: RefCell::new(Vec::new()),
            pending: RefCell::new(BinaryHeap::from(by_chord)),
        }
    }

    /// Physical matches within `radius`, nearest first, with distances in miles: the ranked
    /// matches when the circle held few enough to gather, else a lazy walk of the 3-D R-tree
    /// (matches are then dense, so the walk soon finds what it needs).
    fn nearest_iter<'a>(
        &'a self,
        origin: LatLng,
        radius: f64,
        filter: &'a Bitset,
        ranked: Option<&'a Ranked>,
    ) -> impl Iterator<Item = (usize, f64)> + 'a {
        self.nearest_ordinals(origin, radius, filter, ranked)
            .map(move |ordinal| (ordinal, self.miles_to(origin, ordinal)))
    }

    fn miles_to(&self, origin: LatLng, ordinal: usize) -> f64 {
        haversine_miles(origin, self.core.morton.position(ordinal))
    }

    /// [`Self::nearest_iter`] without the distances.
    fn nearest_ordinals<'a>(
        &'a self,
        origin: LatLng,
        radius: f64,
        filter: &'a Bitset,
        ranked: Option<&'a Ranked>,
    ) -> Box<dyn Iterator<Item = usize> + 'a> {
        if let Some(ranked) = ranked {
            return Box::new((0..).map_while(|position| ranked.get(position)));
        }
        let limit = chord_limit(radius);
        let walk = self
            .core
            .trees
            .sphere
            .nearest_neighbor_iter_with_distance_2(origin.unit_vector())
            .take_while(move |(_, distance_2)| *distance_2 <= limit)
            .map(|(point, _)| point.ordinal as usize)
            .filter(|ordinal| filter.contains(*ordinal));
        Box::new(walk)
    }

    fn nearest_clinicians(
        &self,
        origin: LatLng,
        radius: f64,
        filter: &CompiledFilter,
        scan: Scan<'_>,
        virtual_matches: &[usize],
    ) -> Result<Vec<MarketItem<'_>>, SearchError> {
        let (clinician_names, place_names) = match &filter.text {
            Some(text) => (
                Some(self.core.clinician_text.matches(text, Fields::Primary)?),
                Some(self.core.location_text.matches(text, Fields::Primary)?),
            ),
            None => (None, None),
        };
        let mut items: Vec<MarketItem<'_>> = Vec::with_capacity(MAX_CLINICIANS);
        let located = self
            .nearest_ordinals(origin, radius, scan.places, scan.ranked)
            .take(CLINICIAN_SCAN_LOCATIONS)
            .map(|ordinal| (ordinal, true));
        let virtual_located = virtual_matches.iter().map(|ordinal| (*ordinal, false));
        'locations: for (location, physical) in located.chain(virtual_located) {
            for clinician in self.clinicians_at(location) {
                let clinician = *clinician as usize;
                let name_ok = match (&clinician_names, &place_names) {
                    (Some(names), Some(places)) => names.contains(clinician) || places.contains(location),
                    _ => true,
                };
                let id = self.clinician(clinician).id;
                let chosen = scan.only.is_none_or(|only| only.contains(&id));
                // A clinician seen at a nearer clinic is listed there already; the list is short.
                let listed = items.iter().any(|item| item.id == id);
                if name_ok && chosen && !listed && filter.rule.accepts(self, clinician) {
                    // Measured only for clinics that list someone.
                    let distance = physical.then(|| self.miles_to(origin, location));
                    items.push(self.clinician_item(clinician, location, distance));
                    if items.len() == MAX_CLINICIANS {
                        break 'locations;
                    }
                }
            }
        }
        Ok(items)
    }

    /// Builds the card of a location.
    pub fn location_item(&self, ordinal: usize, distance: Option<f64>) -> MarketItem<'_> {
        let location = self.location(ordinal);
        MarketItem {
            entity: "location",
            id: self.organisation_of(ordinal).id,
            location_id: location.id,
            location_name: &location.location_name,
            name: CardName::Place(&location.name),
            organization_name: &self.organisation_of(ordinal).name,
            credentials: self.location_credentials(ordinal),
            address: &location.address1,
            city: &location.city,
            state: &location.state,
            zip_code: &location.zip,
            logo: &location.logo,
            coordinates: Coordinates {
                lat: location.lat,
                lng: location.lng,
            },
            distance,
            gender: None,
            new_patients: location.accepting_new_patients,
            is_virtual_location: location.is_virtual,
            home_care: location.home_care,
            care_modality: location.modalities.as_displayed(location.is_virtual),
            speciality: self.location_speciality(ordinal),
            works_at: None,
            category: LOCATION_CATEGORY,
            services: Services(&location.service_type_codes),
            favorite: false,
            card: CardKey::Clinic(ordinal as u32),
        }
    }

    /// Builds the card of a clinician seen at a location.
    pub fn clinician_item(
        &self,
        clinician_ordinal: usize,
        location_ordinal: usize,
        distance: Option<f64>,
    ) -> MarketItem<'_> {
        let clinician = self.clinician(clinician_ordinal);
        let location = self.location(location_ordinal);
        MarketItem {
            entity: "provider",
            id: clinician.id,
            location_id: location.id,
            location_name: &location.location_name,
            name: CardName::Person {
                first: &clinician.first_name,
                last: &clinician.last_name,
            },
            organization_name: &self.organisation_of(location_ordinal).name,
            credentials: &clinician.credentials,
            address: &location.address1,
            city: &location.city,
            state: &location.state,
            zip_code: &location.zip,
            logo: &clinician.logo,
            coordinates: Coordinates {
                lat: location.lat,
                lng: location.lng,
            },
            distance,
            gender: Some(clinician.gender.as_str()),
            new_patients: clinician.accepting_new_patients && location.accepting_new_patients,
            is_virtual_location: location.is_virtual,
            home_care: location.home_care,
            care_modality: location.modalities.as_displayed(location.is_virtual),
            speciality: &clinician.speciality,
            works_at: Some(&location.name),
            category: &clinician.category,
            services: Services(&location.service_type_codes),
            favorite: false,
            card: CardKey::Clinician(self.clinician_link(location_ordinal, clinician_ordinal)),
        }
    }

    fn pin_filter(&self, filters: &PinFilters) -> Result<Bitset, SearchError> {
        let search_filters = SearchFilters {
            new_patients: filters.new_patients,
            service_types: filters.service_types.clone(),
            employer: filters.employer.clone(),
            ..SearchFilters::default()
        };
        Ok(self
            .compile(&search_filters, filters.company_alias.as_deref())?
            .locations)
    }

    /// Lists every matching physical location in a box, or says there are too many.
    pub fn pins(&self, bounds: Bounds, filters: &PinFilters) -> Result<PinsResponse, SearchError> {
        let bounds = bounds.validate()?;
        let mut filter = self.pin_filter(filters)?;
        filter.intersect_with(&self.core.physical);
        // Counting is popcounts over Morton cells, so a crowded box costs no pin at all.
        let boxes = bounds.map_boxes();
        let count: usize = boxes
            .iter()
            .map(|map_box| self.core.morton.count_in_box(*map_box, &filter))
            .sum();
        if count > MAX_PINS {
            return Ok(PinsResponse {
                pins: Vec::new(),
                over_limit: true,
                limit: MAX_PINS,
            });
        }
        let mut pins = Vec::with_capacity(count);
        for map_box in boxes {
            let envelope = rstar::AABB::from_corners([map_box.west, map_box.south], [map_box.east, map_box.north]);
            for point in self.core.trees.map.locate_in_envelope(envelope) {
                let ordinal = point.ordinal as usize;
                if !filter.contains(ordinal) {
                    continue;
                }
                let location = self.location(ordinal);
                pins.push(Pin {
                    id: self.organisation_of(ordinal).id,
                    location_id: location.id,
                    name: location.name.clone(),
                    coordinates: Coordinates {
                        lat: location.lat,
                        lng: location.lng,
                    },
                    new_patients: location.accepting_new_patients,
                    favorite: false,
                });
            }
        }
        Ok(PinsResponse {
            pins,
            over_limit: false,
            limit: MAX_PINS,
        })
    }

    /// Clusters the matching physical locations in a box on a grid fitted to the zoom.
    pub fn area_pins(&self, bounds: Bounds, zoom: u32, filters: &PinFilters) -> Result<AreaPinsResponse, SearchError> {
        let bounds = bounds.validate()?;
        if zoom > MAX_ZOOM {
            return Err(SearchError::InvalidParameter(format!(
                "zoom must be between 0 and {MAX_ZOOM}"
            )));
        }
        let mut filter = self.pin_filter(filters)?;
        filter.intersect_with(&self.core.physical);
        let boxes = bounds.map_boxes();
        let unit_area: f64 = boxes
            .iter()
            .map(|map_box| {
                let (x0, y0) = mercator(LatLng {
                    lat: map_box.north,
                    lng: map_box.west,
                });
                let (x1, y1) = mercator(LatLng {
                    lat: map_box.south,
                    lng: map_box.east,
                });
                (x1 - x0).max(1e-9) * (y1 - y0).max(1e-9)
            })
            .sum();
        // Cells of a quarter tile at this zoom, coarsened while the box would need too many.
        let mut level = (zoom + 2).min(MORTON_LEVELS);
        while level > 0 && unit_area * 4f64.powi(level as i32) > MAX_AREA_CELLS {
            level -= 1;
        }
        let mut cells: Vec<CellCount> = Vec::new();
        for map_box in boxes {
            self.core
                .morton
                .cell_counts(level, map_box, &filter, &self.bits.accepting, &mut cells);
        }
        let total = cells.iter().map(|cell| cell.count).sum();
        let areas = cells
            .into_iter()
            .map(|cell| {
                let rect = cell.cell.geo_rect();
                AreaPin {
                    coordinates: cell.centroid.into(),
                    count: cell.count,
                    new_patients: cell.new_patients,
                    bounds: CellBounds {
                        nw_lng: rect.west,
                        nw_lat: rect.north,
                        se_lng: rect.east,
                        se_lat: rect.south,
                    },
                }
            })
            .collect();
        Ok(AreaPinsResponse {
            areas,
            total,
            cell_level: level,
        })
    }

    fn alias_network(&self, alias: Option<&str>) -> Result<Option<Bitset>, SearchError> {
        self.organisation_restriction(None, alias)
    }

    /// Distinct clinician credentials, limited to an alias's network when one is given.
    pub fn credential_list(&self, alias: Option<&str>) -> Result<Vec<String>, SearchError> {
        let network = self.alias_network(alias)?;
        Ok(self.value_list(
            &self.core.credential_names,
            &self.core.credential_locations,
            network.as_ref(),
        ))
    }

    /// Distinct clinician specialities, limited to an alias's network when one is given.
    pub fn speciality_list(&self, alias: Option<&str>) -> Result<Vec<String>, SearchError> {
        let network = self.alias_network(alias)?;
        Ok(self.value_list(
            &self.core.speciality_names,
            &self.core.speciality_locations,
            network.as_ref(),
        ))
    }

    fn value_list(&self, names: &[String], locations: &[Bitset], network: Option<&Bitset>) -> Vec<String> {
        names
            .iter()
            .zip(locations)
            .filter(|(_, at)| match network {
                Some(network) => at.count_range_and(network, 0, at.len()) > 0,
                None => at.count() > 0,
            })
            .map(|(name, _)| name.clone())
            .collect()
    }

    /// Organisation and group names, largest first, optionally starting with `search`, limited
    /// to an alias's network when one is given.
    pub fn organisation_names(
        &self,
        alias: Option<&str>,
        search: Option<&str>,
        limit: usize,
    ) -> Result<Vec<String>, SearchError> {
        let network = self.alias_network(alias)?;
        let search = search
            .map(|text| text.trim().to_lowercase())
            .filter(|text| !text.is_empty());
        let mut named: Vec<(usize, &str)> = self
            .organisations()
            .iter()
            .enumerate()
            .filter(|(_, organisation)| {
                search
                    .as_ref()
                    .is_none_or(|prefix| organisation.name.to_lowercase().contains(prefix.as_str()))
            })
            .filter_map(|(ordinal, organisation)| {
                let locations = self.core.organisation_locations.get(ordinal);
                let allowed = match &network {
                    Some(network) => locations
                        .iter()
                        .filter(|location| network.contains(**location as usize))
                        .count(),
                    None => locations.len(),
                };
                (allowed > 0).then_some((allowed, organisation.name.as_str()))
            })
            .collect();
        named.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(b.1)));
        let mut seen = HashSet::new();
        Ok(named
            .into_iter()
            .map(|(_, name)| name)
            .filter(|name| seen.insert(*name))
            .take(limit)
            .map(str::to_owned)
            .collect())
    }

    /// Runs a name query against the location index without the answer cache and counts the
    /// matches: what the first search for a new text pays.
    pub fn count_name_matches_uncached(&self, text: &str) -> Result<usize, SearchError> {
        let Some(query) = TextQuery::parse(text)? else {
            return Ok(self.location_count());
        };
        Ok(self.core.location_text.matches_uncached(&query, Fields::All)?.count())
    }

    /// Suggests clinics whose names start like `text` (for the address box's autocomplete).
    pub fn suggest_names(&self, text: &str, limit: usize) -> Result<Vec<NameSuggestion>, SearchError> {
        let Some(query) = TextQuery::parse(text)? else {
            return Ok(Vec::new());
        };
        let matches = self.core.location_text.matches(&query, Fields::Primary)?;
        let mut seen = HashSet::new();
        Ok(matches
            .iter()
            .filter(|ordinal| seen.insert(self.location(*ordinal).name.clone()))
            .take(limit)
            .map(|ordinal| {
                let location = self.location(ordinal);
                NameSuggestion {
                    id: self.organisation_of(ordinal).id,
                    location_id: location.id,
                    name: location.name.clone(),
                    location_name: location.location_name.clone(),
                    city: location.city.clone(),
                    state: location.state.clone(),
                }
            })
            .collect())
    }
}
