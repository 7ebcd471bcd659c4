//! Filter planning: turns a request's `SearchFilters` (and company alias) into the bitset of
//! admissible locations, the clinician rule and the text query, and resolves the origin; also
//! the caller's `Favourites`. Imports `snapshot`, `bitset`, `combined`, `text` and `error`; the queries
//! (`search`, `pins`, `lists`) build on it.

use std::borrow::Cow;
use std::collections::HashSet;
use std::ops::Deref;
use std::sync::Arc;

use domain::listing::{Accessibility, Language};
use domain::{Gender, LatLng, PEDIATRICS_SERVICE_TYPE, SearchFilters, ZipCode};
use gazetteer::Gazetteer;

use crate::bitset::Bitset;
use crate::combined::{Combination, ListingFilters};
use crate::error::SearchError;
use crate::snapshot::Snapshot;
use crate::text::{Fields, TextQuery};

/// Values accepted in each list filter.
pub const MAX_LIST_VALUES: usize = 50;

/// The signed-in caller's favourite clinic locations and clinicians, by id, and the clinics
/// whose waitlist they are on (which only flag cards).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Favourites {
    pub location_ids: HashSet<i64>,
    pub clinician_ids: HashSet<i64>,
    pub waitlisted_location_ids: HashSet<i64>,
}

/// What a clinician must satisfy to be listed (and, through them, a location to match).
#[derive(Debug, Default)]
pub(crate) struct ClinicianRule {
    credentials: Option<HashSet<u16>>,
    specialities: Option<HashSet<u16>>,
    genders: Option<HashSet<Gender>>,
    /// The new-patients filter: a clinician not accepting new patients is not listed, though
    /// their clinic may be (a location's own flag decides whether it matches).
    accepting_only: bool,
    /// The languages filter: a clinician is listed when they speak one of these (a location
    /// matches when it or one of its clinicians does).
    languages: Option<Vec<Language>>,
}

impl ClinicianRule {
    fn category_count(&self) -> usize {
        usize::from(self.credentials.is_some())
            + usize::from(self.specialities.is_some())
            + usize::from(self.genders.is_some())
    }

    pub(crate) fn accepts(&self, snapshot: &Snapshot, clinician: usize) -> bool {
        let core = &snapshot.core;
        self.credentials
            .as_ref()
            .is_none_or(|set| set.contains(&core.tables.clinician_credential[clinician]))
            && self
                .specialities
                .as_ref()
                .is_none_or(|set| set.contains(&core.tables.clinician_speciality[clinician]))
            && self
                .genders
                .as_ref()
                .is_none_or(|set| set.contains(&snapshot.clinician(clinician).gender))
    }

    /// What the clinicians list asks of this rule, with its language and new-patients filters
    /// made into sets once per snapshot.
    pub(crate) fn for_list<'r>(&'r self, snapshot: &Snapshot) -> ListedClinicians<'r> {
        let languages = self.languages.clone().unwrap_or_default();
        let clinicians = (self.accepting_only || !languages.is_empty()).then(|| {
            let combination = Combination::Clinicians {
                accepting_only: self.accepting_only,
                languages: languages.clone(),
            };
            snapshot
                .bits
                .combined
                .get(&combination, || self.clinicians_by_attributes(snapshot))
        });
        let combination = Combination::ClinicianLocations {
            accepting_only: self.accepting_only,
            languages,
        };
        let places = snapshot.bits.combined.get(&combination, || {
            let mut places = Bitset::empty(snapshot.location_count());
            let workers: Box<dyn Iterator<Item = usize>> = match &clinicians {
                Some(set) => Box::new(set.iter()),
                None => Box::new(0..snapshot.clinician_count()),
            };
            for clinician in workers {
                for location in snapshot.locations_of(clinician) {
                    places.insert(*location as usize);
                }
            }
            places
        });
        ListedClinicians {
            rule: self,
            clinicians,
            places,
        }
    }

    /// The clinicians who pass the languages and new-patients filters.
    fn clinicians_by_attributes(&self, snapshot: &Snapshot) -> Bitset {
        let bits = &snapshot.bits;
        let mut listed = if self.accepting_only {
            bits.clinicians_accepting.clone()
        } else {
            Bitset::full(snapshot.clinician_count())
        };
        if let Some(languages) = &self.languages {
            let mut speakers = Bitset::empty(snapshot.clinician_count());
            for language in languages {
                if let Some(speaking) = bits.clinician_languages.get(language) {
                    speakers.union_with(speaking);
                }
            }
            listed.intersect_with(&speakers);
        }
        listed
    }
}

/// A clinician rule as the clinicians list applies it: the language and new-patients filters
/// are one bitset test of a clinician, and the clinics with nobody to list are skipped by a
/// bitset over locations, which a nearest-first walk reads nearly in order (locations are
/// numbered in Morton order), without reading their clinicians at scattered places in memory.
pub(crate) struct ListedClinicians<'r> {
    rule: &'r ClinicianRule,
    /// Those who pass the languages and new-patients filters; `None` when neither is set.
    clinicians: Option<Arc<Bitset>>,
    /// The locations where at least one of them works.
    places: Arc<Bitset>,
}

impl ListedClinicians<'_> {
    /// Whether someone at this location may be listed (if not, nobody there is).
    pub(crate) fn may_list_at(&self, location: usize) -> bool {
        self.places.contains(location)
    }

    /// Whether a clinician goes in the clinicians list: [`ClinicianRule::accepts`], and
    /// accepting new patients under the new-patients filter, and speaking one of the languages
    /// under the languages filter.
    pub(crate) fn lists(&self, snapshot: &Snapshot, clinician: usize) -> bool {
        self.clinicians.as_ref().is_none_or(|listed| listed.contains(clinician))
            && self.rule.accepts(snapshot, clinician)
    }
}

/// A compiled filter: the bitset of admissible locations plus what the clinicians list needs.
pub(crate) struct CompiledFilter<'a> {
    pub(crate) locations: LocationSet<'a>,
    pub(crate) rule: ClinicianRule,
    pub(crate) text: Option<TextQuery>,
}

/// A set of admissible locations: one of the snapshot's, one the text cache shares, or one
/// built for this search. Copied only when changed.
#[derive(Clone)]
pub(crate) enum LocationSet<'a> {
    Borrowed(&'a Bitset),
    /// A text's matches, shared with the cache rather than copied (125 KB a search at a
    /// million locations, whose fresh pages cost a text search some 50 µs through HTTP).
    Shared(Arc<Bitset>),
    Owned(Bitset),
}

impl LocationSet<'_> {
    pub(crate) fn to_mut(&mut self) -> &mut Bitset {
        if !matches!(self, Self::Owned(_)) {
            *self = Self::Owned((**self).clone());
        }
        match self {
            Self::Owned(set) => set,
            _ => unreachable!("made owned above"),
        }
    }
}

impl Deref for LocationSet<'_> {
    type Target = Bitset;

    fn deref(&self) -> &Bitset {
        match self {
            Self::Borrowed(set) => set,
            Self::Shared(set) => set,
            Self::Owned(set) => set,
        }
    }
}

impl<'a> From<Cow<'a, Bitset>> for LocationSet<'a> {
    fn from(set: Cow<'a, Bitset>) -> Self {
        match set {
            Cow::Borrowed(set) => Self::Borrowed(set),
            Cow::Owned(set) => Self::Owned(set),
        }
    }
}

/// The admissible locations while filters narrow them. Each filter's set is the snapshot's own,
/// so until two filters meet, the answer is that set itself: at a million locations a copy and
/// an intersection (125 KB each) cost more than the rest of a page of results.
struct Narrowing<'a> {
    set: LocationSet<'a>,
    /// Still the snapshot's set of every location.
    everything: bool,
}

impl<'a> Narrowing<'a> {
    fn new(everywhere: &'a Bitset) -> Self {
        Self {
            set: LocationSet::Borrowed(everywhere),
            everything: true,
        }
    }

    /// Narrows to a set of the snapshot's (borrowed) or one built for this search (owned).
    fn narrow(&mut self, other: Cow<'a, Bitset>) {
        self.narrow_set(other.into());
    }

    /// A set shared with a cache, kept as it is when it is the only filter.
    fn narrow_shared(&mut self, other: Arc<Bitset>) {
        self.narrow_set(LocationSet::Shared(other));
    }

    fn narrow_set(&mut self, other: LocationSet<'a>) {
        if std::mem::take(&mut self.everything) {
            self.set = other;
        } else {
            self.set.to_mut().intersect_with(&other);
        }
    }

    fn into_set(self) -> LocationSet<'a> {
        self.set
    }
}

/// The `selectedLanguages` filter's languages; an unknown code is refused, naming it.
fn parse_languages(codes: &[String]) -> Result<Vec<Language>, SearchError> {
    let mut languages = Vec::with_capacity(codes.len());
    for (index, code) in codes.iter().enumerate() {
        let language = Language::parse(code).ok_or_else(|| {
            SearchError::InvalidFilter(format!(
                "selectedLanguages[{index}]: {code:?} is not an ISO 639 language code"
            ))
        })?;
        if !languages.contains(&language) {
            languages.push(language);
        }
    }
    Ok(languages)
}

/// The listing filters of a search (new patients, service types and pediatrics, languages,
/// accessibility), in the order-free form the combined sets are kept by; an unknown language or
/// accessibility code is refused, naming it.
fn listing_filters(filters: &SearchFilters) -> Result<ListingFilters, SearchError> {
    let mut service_types: Vec<String> = filters
        .service_types
        .iter()
        .map(|code| code.trim().to_owned())
        .collect();
    if filters.pediatrics {
        service_types.push(PEDIATRICS_SERVICE_TYPE.to_owned());
    }
    service_types.sort_unstable();
    service_types.dedup();
    let mut languages = parse_languages(&filters.selected_languages)?;
    languages.sort_unstable();
    let mut accessibility = Vec::with_capacity(filters.selected_accessibility.len());
    for (index, code) in filters.selected_accessibility.iter().enumerate() {
        let known = Accessibility::ALL
            .iter()
            .position(|known| Some(*known) == Accessibility::parse(code))
            .ok_or_else(|| {
                SearchError::InvalidFilter(format!(
                    "selectedAccessibility[{index}]: {code:?} is not a Plan-Net accessibility code"
                ))
            })?;
        accessibility.push(known);
    }
    accessibility.sort_unstable();
    accessibility.dedup();
    Ok(ListingFilters {
        new_patients: filters.new_patients,
        service_types,
        languages,
        accessibility,
    })
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

    /// The locations a company alias and an employer name allow together; `None` when
    /// neither restricts.
    pub(crate) fn organisation_restriction(
        &self,
        employer: Option<&str>,
        alias: Option<&str>,
    ) -> Result<Option<Cow<'_, Bitset>>, SearchError> {
        let mut restriction: Option<Cow<'_, Bitset>> = None;
        if let Some(alias) = alias.map(str::trim).filter(|alias| !alias.is_empty()) {
            let employer = self
                .employer_by_alias(alias)
                .ok_or_else(|| SearchError::InvalidFilter(format!("unknown company alias {alias:?}")))?;
            if let Some(network) = self.employer_network(employer) {
                restriction = Some(Cow::Borrowed(network));
            }
        }
        // An unknown employer name is an inactive employer with no network: no restriction.
        if let Some(employer) = employer.and_then(|name| self.employer_by_name(name))
            && let Some(network) = self.employer_network(employer)
        {
            match &mut restriction {
                Some(existing) => existing.to_mut().intersect_with(network),
                None => restriction = Some(Cow::Borrowed(network)),
            }
        }
        Ok(restriction)
    }

    /// The caller's favourite clinics, all the `favorites` filter lets through.
    pub(crate) fn favourite_locations(&self, favourites: &Favourites) -> Bitset {
        Bitset::from_ordinals(
            self.location_count(),
            favourites
                .location_ids
                .iter()
                .filter_map(|id| self.location_ordinal(*id)),
        )
    }

    /// The locations a search lists before its distance limit, as pins and area pins answer
    /// them: the compiled filters, narrowed to the caller's favourite clinics under the
    /// `favorites` filter (nothing signed out).
    pub(crate) fn listed_locations(
        &self,
        filters: &SearchFilters,
        alias: Option<&str>,
        favourites: Option<&Favourites>,
    ) -> Result<LocationSet<'_>, SearchError> {
        let mut locations = self.compile(filters, alias)?.locations;
        if filters.favorites {
            match favourites {
                Some(favourites) => locations.to_mut().intersect_with(&self.favourite_locations(favourites)),
                None => locations = LocationSet::Owned(Bitset::empty(self.location_count())),
            }
        }
        Ok(locations)
    }

    /// The locations the listing filters admit (`None`: every one): a filter alone is the
    /// snapshot's own set; filters together (a language and new patients) are the set they
    /// combine into, made once per snapshot.
    fn listing_locations(&self, listing: ListingFilters) -> Option<LocationSet<'_>> {
        let bits = &*self.bits;
        let alone = match (
            listing.new_patients,
            &listing.service_types[..],
            &listing.languages[..],
            &listing.accessibility[..],
        ) {
            (false, [], [], []) => return None,
            (true, [], [], []) => Some(&bits.accepting),
            (false, [code], [], []) => bits.service_types.get(code),
            (false, [], [language], []) => bits.languages.get(language),
            (false, [], [], [position]) => Some(&bits.accessibility[*position]),
            _ => None,
        };
        if let Some(set) = alone {
            return Some(LocationSet::Borrowed(set));
        }
        let combination = Combination::Locations(listing);
        let combined = bits.combined.get(&combination, || {
            let Combination::Locations(listing) = &combination else {
                unreachable!("made above")
            };
            self.combine_listing_filters(listing)
        });
        Some(LocationSet::Shared(combined))
    }

    fn combine_listing_filters(&self, listing: &ListingFilters) -> Bitset {
        let bits = &*self.bits;
        let len = self.location_count();
        let mut admitted = Bitset::full(len);
        if listing.new_patients {
            admitted.intersect_with(&bits.accepting);
        }
        for code in &listing.service_types {
            match bits.service_types.get(code) {
                Some(offering) => admitted.intersect_with(offering),
                None => return Bitset::empty(len),
            }
        }
        if !listing.languages.is_empty() {
            let mut spoken = Bitset::empty(len);
            for at in listing
                .languages
                .iter()
                .filter_map(|language| bits.languages.get(language))
            {
                spoken.union_with(at);
            }
            admitted.intersect_with(&spoken);
        }
        for position in &listing.accessibility {
            admitted.intersect_with(&bits.accessibility[*position]);
        }
        admitted
    }

    /// Compiles the filters of a search (and a company alias) into what the queries use.
    pub(crate) fn compile(
        &self,
        filters: &SearchFilters,
        alias: Option<&str>,
    ) -> Result<CompiledFilter<'_>, SearchError> {
        check_list("selectedCredentials", &filters.selected_credentials)?;
        check_list("selectedSpecialities", &filters.selected_specialities)?;
        check_list("selectedGenders", &filters.selected_genders)?;
        check_list(
            "selectedGroupAndOrganizations",
            &filters.selected_group_and_organizations,
        )?;
        check_list("serviceTypes", &filters.service_types)?;
        check_list("selectedLanguages", &filters.selected_languages)?;
        check_list("selectedAccessibility", &filters.selected_accessibility)?;
        let len = self.location_count();
        let mut locations = Narrowing::new(&self.core.tables.everywhere);
        if let Some(listed) = self.listing_locations(listing_filters(filters)?) {
            locations.narrow_set(listed);
        }
        if let Some(restriction) = self.organisation_restriction(filters.employer.as_deref(), alias)? {
            locations.narrow(restriction);
        }
        if !filters.selected_group_and_organizations.is_empty() {
            let mut chosen = Bitset::empty(len);
            for name in &filters.selected_group_and_organizations {
                for organisation in self.organisations_named(name) {
                    for location in self.core.tables.organisation_locations.get(*organisation as usize) {
                        chosen.insert(*location as usize);
                    }
                }
            }
            locations.narrow(Cow::Owned(chosen));
        }

        let rule = self.clinician_rule(filters)?;
        match rule.category_count() {
            0 => {}
            1 => {
                let mut with_clinician = Bitset::empty(len);
                let sources: Vec<&Bitset> = if let Some(set) = &rule.credentials {
                    set.iter().map(|code| self.credential_locations(*code)).collect()
                } else if let Some(set) = &rule.specialities {
                    set.iter().map(|code| self.speciality_locations(*code)).collect()
                } else {
                    rule.genders
                        .iter()
                        .flatten()
                        .map(|gender| self.gender_locations(*gender))
                        .collect()
                };
                for source in sources {
                    with_clinician.union_with(source);
                }
                locations.narrow(Cow::Owned(with_clinician));
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
                locations.narrow(Cow::Owned(with_clinician));
            }
        }

        let text = match &filters.search_by_name {
            Some(text) => TextQuery::parse(text)?,
            None => None,
        };
        if let Some(text) = &text {
            locations.narrow_shared(self.location_text_matches(text, Fields::All)?);
        }
        Ok(CompiledFilter {
            locations: locations.into_set(),
            rule,
            text,
        })
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
        let languages = parse_languages(&filters.selected_languages)?;
        Ok(ClinicianRule {
            credentials: codes(&filters.selected_credentials, &self.core.tables.credential_names),
            specialities: codes(&filters.selected_specialities, &self.core.tables.speciality_names),
            genders,
            accepting_only: filters.new_patients,
            languages: (!languages.is_empty()).then_some(languages),
        })
    }

    /// The state of the origin (from the request's ZIP codes, else the nearest ZIP), whose
    /// virtual locations a search lists.
    pub(crate) fn origin_state<'g>(
        &self,
        filters: &SearchFilters,
        origin: LatLng,
        gazetteer: &'g Gazetteer,
    ) -> Option<&'g str> {
        let from_zip = filters
            .user_zip_code
            .iter()
            .chain(&filters.zip_code)
            .filter_map(|zip| ZipCode::parse(zip))
            .find_map(|zip| gazetteer.zip(zip))
            .map(|place| place.state.as_str());
        from_zip.or_else(|| gazetteer.nearest_zip_state(origin))
    }
}
