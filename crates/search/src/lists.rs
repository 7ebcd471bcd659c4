//! Filter lists (credentials, specialities, organisation names) and name suggestions.
//! Imports `answer`, `snapshot`, `text`, `bitset` and `error`, and uses `plan`'s
//! `Snapshot::organisation_restriction` for a company alias's network.

use std::collections::HashSet;

use domain::listing::Language;

use crate::answer::NameSuggestion;
use std::borrow::Cow;

use crate::bitset::Bitset;
use crate::error::SearchError;
use crate::snapshot::Snapshot;
use crate::text::{Fields, TextQuery};

impl Snapshot {
    fn alias_network(&self, alias: Option<&str>) -> Result<Option<Cow<'_, Bitset>>, SearchError> {
        self.organisation_restriction(None, alias)
    }

    /// Distinct clinician credentials, limited to an alias's network when one is given.
    pub fn credential_list(&self, alias: Option<&str>) -> Result<Vec<String>, SearchError> {
        let network = self.alias_network(alias)?;
        Ok(self.value_list(
            &self.core.tables.credential_names,
            |code| self.credential_locations(code),
            network.as_deref(),
        ))
    }

    /// Distinct clinician specialities, limited to an alias's network when one is given.
    pub fn speciality_list(&self, alias: Option<&str>) -> Result<Vec<String>, SearchError> {
        let network = self.alias_network(alias)?;
        Ok(self.value_list(
            &self.core.tables.speciality_names,
            |code| self.speciality_locations(code),
            network.as_deref(),
        ))
    }

    /// The languages spoken at some location (by the clinic or a clinician there), by name,
    /// limited to an alias's network when one is given.
    pub fn language_list(&self, alias: Option<&str>) -> Result<Vec<Language>, SearchError> {
        let network = self.alias_network(alias)?;
        let mut spoken: Vec<Language> = self
            .bits
            .languages
            .iter()
            .filter(|(_, at)| any_in(at, network.as_deref()))
            .map(|(language, _)| *language)
            .collect();
        spoken.sort_unstable_by_key(|language| language.name());
        Ok(spoken)
    }

    fn value_list<'a>(
        &'a self,
        names: &[String],
        locations: impl Fn(u16) -> &'a Bitset,
        network: Option<&Bitset>,
    ) -> Vec<String> {
        names
            .iter()
            .enumerate()
            .filter(|(code, _)| any_in(locations(*code as u16), network))
            .map(|(_, name)| name.clone())
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
                let locations = self.core.tables.organisation_locations.get(ordinal);
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

/// Whether a set has a member, inside `network` when one is given.
fn any_in(set: &Bitset, network: Option<&Bitset>) -> bool {
    match network {
        Some(network) => set.count_range_and(network, 0, set.len()) > 0,
        None => set.count() > 0,
    }
}
