//! Independent, obviously-correct answers: linear scans over the rows.

use std::collections::HashMap;

use domain::{Gender, LatLng, Location, SearchFilters};
use search::Bounds;

use crate::fixture::Fixture;

/// Great-circle miles, written independently of the engine's formula (atan2 form, own radius
/// constant spelled out).
pub fn miles(a: LatLng, b: LatLng) -> f64 {
    let radius = 6_371.008_8 / 1.609_344;
    let (phi1, phi2) = (a.lat.to_radians(), b.lat.to_radians());
    let d_phi = phi2 - phi1;
    let d_lambda = (b.lng - a.lng).to_radians();
    let h = (d_phi / 2.0).sin().powi(2) + phi1.cos() * phi2.cos() * (d_lambda / 2.0).sin().powi(2);
    2.0 * radius * h.sqrt().atan2((1.0 - h).sqrt())
}

fn tokens(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|token| !token.is_empty() && token.len() < 40)
        .map(|token| token.to_lowercase())
        .collect()
}

/// Optimal string alignment distance (Levenshtein with adjacent transpositions).
fn osa(a: &[char], b: &[char]) -> usize {
    let mut table = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in table.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in table[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (table[i - 1][j] + 1)
                .min(table[i][j - 1] + 1)
                .min(table[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(table[i - 2][j - 2] + 1);
            }
            table[i][j] = best;
        }
    }
    table[a.len()][b.len()]
}

/// Whether every query word is in the text: exact for words of up to 3 characters, one edit
/// otherwise; the last word may also be the start of a word (exactly).
pub fn text_matches(query: &str, text: &str) -> bool {
    let words = tokens(query);
    let document = tokens(text);
    words.iter().enumerate().all(|(position, word)| {
        let word: Vec<char> = word.chars().collect();
        let allowed = if word.len() <= 3 { 0 } else { 1 };
        let last = position + 1 == words.len();
        document.iter().any(|token| {
            let token: Vec<char> = token.chars().collect();
            osa(&word, &token) <= allowed || (last && token.starts_with(&word))
        })
    })
}

pub struct Brute<'a> {
    pub fixture: &'a Fixture,
    clinicians_at: HashMap<i64, Vec<usize>>,
}

impl<'a> Brute<'a> {
    pub fn new(fixture: &'a Fixture) -> Self {
        let mut clinicians_at: HashMap<i64, Vec<usize>> = HashMap::new();
        for (position, clinician) in fixture.input.clinicians.iter().enumerate() {
            for location in &clinician.location_ids {
                clinicians_at.entry(*location).or_default().push(position);
            }
        }
        Self { fixture, clinicians_at }
    }

    fn organisation_name(&self, location: &Location) -> &str {
        &self
            .fixture
            .input
            .organisations
            .iter()
            .find(|o| o.id == location.organisation_id)
            .unwrap()
            .name
    }

    pub fn searchable_text(&self, location: &Location) -> String {
        let people: Vec<String> = self
            .clinicians_at
            .get(&location.id)
            .into_iter()
            .flatten()
            .map(|c| self.fixture.input.clinicians[*c].display_name())
            .collect();
        format!(
            "{} {} {} {}",
            location.name,
            location.location_name,
            self.organisation_name(location),
            people.join(" ")
        )
    }

    fn employer_network(&self, name: Option<&str>, alias: Option<&str>) -> Option<Vec<i64>> {
        let employers = &self.fixture.input.employers;
        let mut networks = Vec::new();
        if let Some(alias) = alias {
            let employer = employers.iter().find(|e| e.alias.as_deref() == Some(alias)).unwrap();
            networks.push(employer.network_organisation_ids.clone());
        }
        if let Some(name) = name {
            let wanted = name.to_lowercase();
            let mut sorted: Vec<_> = employers.iter().map(|e| (e.company_name.to_lowercase(), e)).collect();
            sorted.sort_by(|a, b| a.0.cmp(&b.0));
            let chosen = sorted
                .iter()
                .find(|(n, _)| *n == wanted)
                .or_else(|| sorted.iter().find(|(n, _)| n.starts_with(&wanted)));
            if let Some((_, employer)) = chosen {
                networks.push(employer.network_organisation_ids.clone());
            }
        }
        let restricting: Vec<Vec<i64>> = networks.into_iter().filter(|n| !n.is_empty()).collect();
        match restricting.as_slice() {
            [] => None,
            [first, rest @ ..] => Some(
                first
                    .iter()
                    .copied()
                    .filter(|id| rest.iter().all(|n| n.contains(id)))
                    .collect(),
            ),
        }
    }

    pub fn matches(&self, location: &Location, filters: &SearchFilters, alias: Option<&str>) -> bool {
        if filters.new_patients && !location.accepting_new_patients {
            return false;
        }
        if filters.pediatrics && !location.offers_service("BH") {
            return false;
        }
        if !filters.service_types.iter().all(|code| location.offers_service(code)) {
            return false;
        }
        if let Some(network) = self.employer_network(filters.employer.as_deref(), alias)
            && !network.contains(&location.organisation_id)
        {
            return false;
        }
        if !filters.selected_group_and_organizations.is_empty() {
            let name = self.organisation_name(location).to_lowercase();
            if !filters
                .selected_group_and_organizations
                .iter()
                .any(|chosen| chosen.to_lowercase() == name)
            {
                return false;
            }
        }
        let clinician_filters = !filters.selected_credentials.is_empty()
            || !filters.selected_specialities.is_empty()
            || !filters.selected_genders.is_empty();
        if clinician_filters {
            let any = self.clinicians_at.get(&location.id).into_iter().flatten().any(|c| {
                let clinician = &self.fixture.input.clinicians[*c];
                (filters.selected_credentials.is_empty()
                    || filters
                        .selected_credentials
                        .iter()
                        .any(|v| v.eq_ignore_ascii_case(&clinician.credentials)))
                    && (filters.selected_specialities.is_empty()
                        || filters
                            .selected_specialities
                            .iter()
                            .any(|v| v.eq_ignore_ascii_case(&clinician.speciality)))
                    && (filters.selected_genders.is_empty()
                        || filters
                            .selected_genders
                            .iter()
                            .any(|v| Gender::parse(v) == Some(clinician.gender)))
            });
            if !any {
                return false;
            }
        }
        match &filters.search_by_name {
            Some(text) if !tokens(text).is_empty() => text_matches(text, &self.searchable_text(location)),
            _ => true,
        }
    }

    /// Physical matches within the radius, nearest first, and virtual matches for the state.
    pub fn search(
        &self,
        origin: LatLng,
        filters: &SearchFilters,
        alias: Option<&str>,
        state: &str,
    ) -> (Vec<(i64, f64)>, Vec<i64>) {
        let radius = filters.search_distance.radius_miles();
        let mut physical: Vec<(i64, f64)> = self
            .fixture
            .input
            .locations
            .iter()
            .filter(|l| !l.is_virtual && self.matches(l, filters, alias))
            .map(|l| (l.id, miles(origin, LatLng { lat: l.lat, lng: l.lng })))
            .filter(|(_, d)| *d <= radius)
            .collect();
        physical.sort_by(|a, b| a.1.total_cmp(&b.1));
        let virtual_ids = self
            .fixture
            .input
            .locations
            .iter()
            .filter(|l| l.is_virtual && l.virtual_states.iter().any(|s| s == state) && self.matches(l, filters, alias))
            .map(|l| l.id)
            .collect();
        (physical, virtual_ids)
    }

    pub fn in_box(&self, bounds: Bounds, filters: &SearchFilters) -> Vec<i64> {
        let mut ids: Vec<i64> = self
            .fixture
            .input
            .locations
            .iter()
            .filter(|l| !l.is_virtual && self.matches(l, filters, None))
            .filter(|l| {
                let lng_ok = if bounds.nw_lng <= bounds.se_lng {
                    l.lng >= bounds.nw_lng && l.lng <= bounds.se_lng
                } else {
                    l.lng >= bounds.nw_lng || l.lng <= bounds.se_lng
                };
                lng_ok && l.lat <= bounds.nw_lat && l.lat >= bounds.se_lat
            })
            .map(|l| l.id)
            .collect();
        ids.sort_unstable();
        ids
    }
}

#[test]
fn the_brute_text_matcher_follows_the_documented_rules() {
    assert!(text_matches("summit prim", "Summit Direct Primary Care"));
    assert!(text_matches("sumit", "Summit Direct"));
    assert!(text_matches("summ", "Summit Direct"));
    assert!(!text_matches("sum direct", "Summit Direct"));
    assert!(!text_matches("smt", "Summit"));
    assert!(text_matches("garica", "Maria Garcia"));
    assert!(!text_matches("xyzzy", "Summit"));
}
