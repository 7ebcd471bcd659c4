//! The marketplace search: counting within the radius, nearest-first ranking, paging, the
//! clinician list, the cards of an answer and their JSON (through the snapshot's card cache,
//! which the HTTP handler's `search_json_for` reaches without reading a cached card's rows).
//! Imports `plan` (filters), `answer` (what it returns), `snapshot`, `spatial`, `text`,
//! `bitset` and `error`.

use std::cell::RefCell;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashSet};

use domain::geo::miles_for_chord;
use domain::{LatLng, MAX_SEARCH_MILES, SearchFilters};
use gazetteer::Gazetteer;

use crate::answer::{CardKey, CardName, Coordinates, MarketItem, SearchResponse, Services, VerifiedOn};
use crate::bitset::Bitset;
use crate::cards::{AnswerNumbers, CardSource};
use crate::error::SearchError;
use crate::plan::{CompiledFilter, Favourites};
use crate::rows::StateVirtuals;
use crate::snapshot::Snapshot;
use crate::spatial::{chord_2, chord_limit};
use crate::text::Fields;

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

/// Where the clinician list looks: the matching places nearest first and, for the favourites
/// filter, the only clinicians it may show.
struct Scan<'w, 'a> {
    places: &'w NearestWalk<'a>,
    only: Option<&'a HashSet<i64>>,
}

/// A nearest-first walk whose places are kept as they are read, so the page and the clinician
/// list (which starts at the same nearest places) share one walk of the R-tree. Each place comes
/// with its squared chord from the origin, the value the walk ordered it by, so that its distance
/// reads no coordinates again (three cache misses a place at a million locations).
struct NearestWalk<'a> {
    read: RefCell<Vec<(usize, f64)>>,
    walk: RefCell<Box<dyn Iterator<Item = (usize, f64)> + 'a>>,
}

impl<'a> NearestWalk<'a> {
    fn new(walk: Box<dyn Iterator<Item = (usize, f64)> + 'a>) -> Self {
        Self {
            read: RefCell::new(Vec::new()),
            walk: RefCell::new(walk),
        }
    }

    /// The place at `position` in nearest-first order, with its squared chord.
    fn get(&self, position: usize) -> Option<(usize, f64)> {
        let mut read = self.read.borrow_mut();
        while read.len() <= position {
            let next = self.walk.borrow_mut().next()?;
            read.push(next);
        }
        Some(read[position])
    }

    fn iter(&self) -> impl Iterator<Item = (usize, f64)> + '_ {
        (0..).map_while(|position| self.get(position))
    }
}

/// Gathered matches, put in nearest-first order only as far as they are read: a page of six
/// and the few dozen clinics the clinician list looks at need a fraction of a full sort.
struct Ranked {
    sorted: RefCell<Vec<(usize, f64)>>,
    pending: RefCell<BinaryHeap<Reverse<(u64, usize)>>>,
}

impl Ranked {
    /// The match at `position` in nearest-first order (ties by ordinal), with its squared chord.
    fn get(&self, position: usize) -> Option<(usize, f64)> {
        let mut sorted = self.sorted.borrow_mut();
        while sorted.len() <= position {
            let Reverse((chord_2_bits, ordinal)) = self.pending.borrow_mut().pop()?;
            sorted.push((ordinal, f64::from_bits(chord_2_bits)));
        }
        Some(sorted[position])
    }
}

/// A card an answer lists, by the ordinals its fields are read from: its rows are read only when
/// its text is rendered (see `cards::CardSource`).
#[derive(Debug, Clone, Copy)]
struct Listed {
    location: u32,
    /// Set for a clinician's card (the clinician seen at `location`).
    clinician: Option<u32>,
    distance: Option<f64>,
    favorite: bool,
    waitlisted: bool,
}

impl Listed {
    fn clinic(location: usize, distance: Option<f64>) -> Self {
        Self {
            location: location as u32,
            clinician: None,
            distance,
            favorite: false,
            waitlisted: false,
        }
    }

    fn clinician(location: usize, clinician: usize, distance: Option<f64>) -> Self {
        Self {
            clinician: Some(clinician as u32),
            ..Self::clinic(location, distance)
        }
    }
}

/// What a search answer lists: its cards, not yet read, and its numbers.
struct Listing {
    clinics: Vec<Listed>,
    clinicians: Vec<Listed>,
    numbers: AnswerNumbers,
}

/// A listed card with the snapshot it is read from and its cache slot, for the card cache
/// (which asks for the slot twice: to size the answer, then to write it).
struct ListedCard<'s> {
    snapshot: &'s Snapshot,
    listed: Listed,
    key: CardKey,
}

impl<'s> ListedCard<'s> {
    fn new(snapshot: &'s Snapshot, listed: Listed) -> Self {
        let location = listed.location;
        let key = match listed.clinician {
            None => CardKey::Clinic(location),
            Some(clinician) => CardKey::Clinician(snapshot.clinician_link(location as usize, clinician as usize)),
        };
        Self { snapshot, listed, key }
    }
}

impl<'s> CardSource<'s> for ListedCard<'s> {
    fn key(&self) -> CardKey {
        self.key
    }

    fn distance(&self) -> Option<f64> {
        self.listed.distance
    }

    fn flags(&self) -> (bool, bool) {
        (self.listed.favorite, self.listed.waitlisted)
    }

    fn item(&self) -> MarketItem<'s> {
        self.snapshot.listed_item(&self.listed)
    }
}

impl Snapshot {
    /// Runs a marketplace search for someone signed out.
    pub fn search(&self, request: &SearchRequest, gazetteer: &Gazetteer) -> Result<SearchResponse<'_>, SearchError> {
        self.search_for(request, gazetteer, None)
    }

    /// Runs a marketplace search; `favourites` are the signed-in caller's, which flag cards
    /// (favourite and waitlisted) and are all the `favorites` filter lets through (nothing,
    /// signed out).
    pub fn search_for(
        &self,
        request: &SearchRequest,
        gazetteer: &Gazetteer,
        favourites: Option<&Favourites>,
    ) -> Result<SearchResponse<'_>, SearchError> {
        let listing = self.list(request, gazetteer, favourites)?;
        let AnswerNumbers {
            total_pages,
            current_page,
            total_results,
            origin,
            radius_miles,
        } = listing.numbers;
        Ok(SearchResponse {
            clinics: listing.clinics.iter().map(|listed| self.listed_item(listed)).collect(),
            clinicians: listing
                .clinicians
                .iter()
                .map(|listed| self.listed_item(listed))
                .collect(),
            total_pages,
            current_page,
            total_results,
            origin,
            radius_miles,
        })
    }

    /// The JSON of [`Self::search_for`]'s answer, as [`Self::search_json`] writes it, reading the
    /// rows behind a card only when its text is not cached yet (see `cards::CardSource`).
    pub fn search_json_for(
        &self,
        request: &SearchRequest,
        gazetteer: &Gazetteer,
        favourites: Option<&Favourites>,
    ) -> Result<Vec<u8>, SearchError> {
        Ok(self.search_json_counted_for(request, gazetteer, favourites)?.0)
    }

    /// [`Self::search_json_for`], with how many cards the answer lists (clinics and
    /// clinicians), for the server's metrics.
    pub fn search_json_counted_for(
        &self,
        request: &SearchRequest,
        gazetteer: &Gazetteer,
        favourites: Option<&Favourites>,
    ) -> Result<(Vec<u8>, usize), SearchError> {
        let listing = self.list(request, gazetteer, favourites)?;
        let bind = |listed: &[Listed]| -> Vec<ListedCard<'_>> {
            listed.iter().map(|listed| ListedCard::new(self, *listed)).collect()
        };
        let json =
            self.cards
                .write_cards_and_numbers(&bind(&listing.clinics), &bind(&listing.clinicians), &listing.numbers);
        Ok((json, listing.clinics.len() + listing.clinicians.len()))
    }

    /// The cards a search answer lists, and its numbers.
    fn list(
        &self,
        request: &SearchRequest,
        gazetteer: &Gazetteer,
        favourites: Option<&Favourites>,
    ) -> Result<Listing, SearchError> {
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
            filter
                .locations
                .to_mut()
                .intersect_with(&self.favourite_locations(favourites));
            everywhere
        });
        let (physical_total, gathered) =
            self.core
                .tables
                .morton
                .count_and_gather_within(origin, radius, &filter.locations, GATHER_MATCHES_BELOW);
        let ranked = gathered.map(|found| self.rank_by_distance(origin, found));
        let origin_state = self.origin_state(&request.filters, origin, gazetteer);
        // Listed by name, after every physical location.
        let state_virtuals = origin_state.and_then(|state| self.core.tables.virtual_by_state.get(state));
        let virtual_total = match (origin_state, state_virtuals) {
            (Some(state), Some(virtuals)) => self.virtual_count(state, virtuals, &filter.locations),
            _ => 0,
        };
        let virtual_matches = || {
            state_virtuals
                .into_iter()
                .flat_map(|virtuals| &virtuals.by_name)
                .map(|ordinal| *ordinal as usize)
                .filter(|ordinal| filter.locations.contains(*ordinal))
        };

        let total = physical_total + virtual_total;
        let limit = request.limit as usize;
        let offset = (request.page as usize - 1) * limit;
        let wanted_physical = (offset + limit).min(physical_total);
        let walk = NearestWalk::new(self.nearest_ordinals(origin, radius, &filter.locations, ranked.as_ref()));
        let nearest: Vec<(usize, f64)> = if wanted_physical > offset {
            walk.iter()
                .take(wanted_physical)
                .map(|(ordinal, chord_2)| (ordinal, miles_for_chord(chord_2.sqrt())))
                .collect()
        } else {
            Vec::new()
        };

        let mut clinics: Vec<Listed> = nearest
            .iter()
            .skip(offset)
            .take(limit)
            .map(|(ordinal, distance)| Listed::clinic(*ordinal, Some(*distance)))
            .collect();
        if clinics.len() < limit {
            let virtual_offset = offset.saturating_sub(physical_total);
            clinics.extend(
                virtual_matches()
                    .skip(virtual_offset)
                    .take(limit - clinics.len())
                    .map(|ordinal| Listed::clinic(ordinal, None)),
            );
        }
        let favourite_walk = clinician_places
            .as_ref()
            .map(|places| NearestWalk::new(self.nearest_ordinals(origin, radius, places, None)));
        let scan = match &favourite_walk {
            Some(places) => Scan {
                places,
                only: favourites_only.map(|favourites| &favourites.clinician_ids),
            },
            None => Scan {
                places: &walk,
                only: None,
            },
        };
        let mut clinicians = self.nearest_clinicians(&filter, scan, virtual_matches())?;
        if let Some(favourites) = favourites {
            for clinic in &mut clinics {
                let location_id = self.location(clinic.location as usize).id;
                clinic.favorite = favourites.location_ids.contains(&location_id);
                clinic.waitlisted = favourites.waitlisted_location_ids.contains(&location_id);
            }
            for listed in &mut clinicians {
                let clinician_id = listed.clinician.map(|ordinal| self.clinician(ordinal as usize).id);
                listed.favorite = clinician_id.is_some_and(|id| favourites.clinician_ids.contains(&id));
                let location_id = self.location(listed.location as usize).id;
                listed.waitlisted = favourites.waitlisted_location_ids.contains(&location_id);
            }
        }
        Ok(Listing {
            clinics,
            clinicians,
            numbers: AnswerNumbers {
                total_pages: total.div_ceil(limit) as u32,
                current_page: request.page,
                total_results: total,
                origin: origin.into(),
                radius_miles: radius,
            },
        })
    }

    /// The card of a listed clinic or clinician, with the caller's flags.
    fn listed_item(&self, listed: &Listed) -> MarketItem<'_> {
        let location = listed.location as usize;
        let mut item = match listed.clinician {
            None => self.location_item(location, listed.distance),
            Some(clinician) => self.clinician_item(clinician as usize, location, listed.distance),
        };
        item.favorite = listed.favorite;
        item.waitlisted = listed.waitlisted;
        item
    }

    /// The members of `filter` among the virtual locations serving `state`. The sets most
    /// searches use (no filter, new patients alone) are counted once per snapshot.
    fn virtual_count(&self, state: &str, virtuals: &StateVirtuals, filter: &Bitset) -> usize {
        let tables = &self.core.tables;
        if std::ptr::eq(filter, &tables.everywhere) {
            virtuals.count
        } else if std::ptr::eq(filter, &self.bits.accepting) {
            self.bits.virtual_accepting_in(tables, state)
        } else {
            filter.count_range_and(&virtuals.members, tables.physical_len, self.location_count())
        }
    }

    /// Orders gathered matches nearest first (by chord, which orders like great-circle distance).
    fn rank_by_distance(&self, origin: LatLng, found: Vec<usize>) -> Ranked {
        let morton = &self.core.tables.morton;
        let origin_unit = origin.unit_vector();
        // A squared chord is never negative, and non-negative floats order like their bits.
        let by_chord: Vec<Reverse<(u64, usize)>> = found
            .into_iter()
            .map(|ordinal| Reverse((chord_2(&morton.unit(ordinal), &origin_unit).to_bits(), ordinal)))
            .collect();
        Ranked {
            sorted: RefCell::new(Vec::new()),
            pending: RefCell::new(BinaryHeap::from(by_chord)),
        }
    }

    /// Physical matches within `radius`, nearest first: the ranked matches when the circle held
    /// few enough to gather, else a lazy walk of the 3-D R-tree (matches are then dense, so the
    /// walk soon finds what it needs).
    fn nearest_ordinals<'a>(
        &'a self,
        origin: LatLng,
        radius: f64,
        filter: &'a Bitset,
        ranked: Option<&'a Ranked>,
    ) -> Box<dyn Iterator<Item = (usize, f64)> + 'a> {
        if let Some(ranked) = ranked {
            return Box::new((0..).map_while(|position| ranked.get(position)));
        }
        let keep = |ordinal: u32| filter.contains(ordinal as usize);
        let mut walk = self
            .core
            .tables
            .trees
            .nearest_first(origin.unit_vector(), chord_limit(radius), keep);
        Box::new(std::iter::from_fn(move || walk.next_with_chord_2()))
    }

    fn nearest_clinicians(
        &self,
        filter: &CompiledFilter<'_>,
        scan: Scan<'_, '_>,
        virtual_matches: impl Iterator<Item = usize>,
    ) -> Result<Vec<Listed>, SearchError> {
        let (clinician_names, place_names) = match &filter.text {
            Some(text) => (
                Some(self.core.clinician_text.matches(text, Fields::Primary)?),
                Some(self.location_text_matches(text, Fields::Primary)?),
            ),
            None => (None, None),
        };
        let rule = filter.rule.for_list(self);
        let mut items: Vec<Listed> = Vec::with_capacity(MAX_CLINICIANS);
        let located = scan
            .places
            .iter()
            .take(CLINICIAN_SCAN_LOCATIONS)
            .map(|(ordinal, chord_2)| (ordinal, Some(chord_2)));
        let virtual_located = virtual_matches.map(|ordinal| (ordinal, None));
        'locations: for (location, chord_2) in located.chain(virtual_located) {
            if !rule.may_list_at(location) {
                continue;
            }
            for clinician in self.clinicians_at(location) {
                let clinician = *clinician as usize;
                let name_ok = match (&clinician_names, &place_names) {
                    (Some(names), Some(places)) => names.contains(clinician) || places.contains(location),
                    _ => true,
                };
                let chosen = scan
                    .only
                    .is_none_or(|only| only.contains(&self.clinician(clinician).id));
                // A clinician seen at a nearer clinic is listed there already; the list is short.
                // Told apart by ordinal, not id: a row is read only if its card is rendered.
                let listed = items.iter().any(|item| item.clinician == Some(clinician as u32));
                if name_ok && chosen && !listed && rule.lists(self, clinician) {
                    // Measured only for clinics that list someone.
                    let distance = chord_2.map(|chord_2| miles_for_chord(chord_2.sqrt()));
                    items.push(Listed::clinician(location, clinician, distance));
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
            last_verified: VerifiedOn(location.last_verified),
            favorite: false,
            waitlisted: false,
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
            last_verified: VerifiedOn(clinician.last_verified),
            favorite: false,
            waitlisted: false,
            card: CardKey::Clinician(self.clinician_link(location_ordinal, clinician_ordinal)),
        }
    }

    /// The JSON of a search answer, equal to serde's rendering of it (favourite and waitlist
    /// flags and distances as the items carry them), written mostly from this snapshot's cached cards.
    pub fn search_json(&self, answer: &SearchResponse<'_>) -> Vec<u8> {
        self.cards.write_answer(answer)
    }
}
