//! Answering a search from a snapshot: candidates in id order (or nearest first for `near`),
//! the filters, the page after a cursor, the included resources, and the Bundle's JSON.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, RwLock};

use domain::LatLng;
use serde_json::Value;

use crate::codes::EXT_LOCATION_DISTANCE;
use crate::directory::{Directory, Item, OrderKey};
use crate::params::{DistanceUnit, Filter, ParamError, Query, ResourceType};
use crate::resources;

/// A match of a search and, for `near`, its distance in the query's unit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Match {
    pub item: Item,
    pub distance: Option<f64>,
}

/// A page of a search.
#[derive(Debug, Clone, PartialEq)]
pub struct Page {
    pub matches: Vec<Match>,
    /// The included resources, each once, after the matches.
    pub included: Vec<Item>,
    /// Where the next page starts, when there is one.
    pub next_cursor: Option<String>,
    /// Every match counted (`_summary=count`, `_count=0`).
    pub total: Option<usize>,
}

/// Where a page resumes: after an item in id order, or after a distance and id.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Cursor {
    Ordered(OrderKey),
    Near { miles: f64, id: i64 },
}

impl Cursor {
    fn parse(text: &str) -> Result<Self, ParamError> {
        let bad = || {
            ParamError::new(
                "_cursor",
                format!("_cursor \"{text}\" is not a cursor this server wrote"),
            )
        };
        if let Some(rest) = text.strip_prefix('n') {
            let (bits, id) = rest.split_once('.').ok_or_else(bad)?;
            let miles = f64::from_bits(u64::from_str_radix(bits, 16).map_err(|_| bad())?);
            let id = id.parse().map_err(|_| bad())?;
            if !miles.is_finite() || miles < 0.0 {
                return Err(bad());
            }
            return Ok(Self::Near { miles, id });
        }
        let rest = text.strip_prefix('k').ok_or_else(bad)?;
        let parts: Vec<i64> = rest
            .split('.')
            .map(|part| part.parse().map_err(|_| bad()))
            .collect::<Result<_, _>>()?;
        let [group, a, b, c] = parts[..] else { return Err(bad()) };
        let group = u8::try_from(group).map_err(|_| bad())?;
        Ok(Self::Ordered((group, a, b, c)))
    }

    fn write(&self) -> String {
        match self {
            Self::Ordered((group, a, b, c)) => format!("k{group}.{a}.{b}.{c}"),
            Self::Near { miles, id } => format!("n{:x}.{id}", miles.to_bits()),
        }
    }
}

/// Runs a search.
pub fn search(directory: &Directory<'_>, query: &Query) -> Result<Page, ParamError> {
    let cursor = query.cursor.as_deref().map(Cursor::parse).transpose()?;
    let counting = query.summary_count || query.count == 0;
    if let Some(near) = query.near {
        if matches!(cursor, Some(Cursor::Ordered(_))) {
            return Err(ParamError::new("_cursor", "_cursor is not from a near search"));
        }
        return Ok(near_search(directory, query, near, cursor, counting));
    }
    let after = match cursor {
        None => None,
        Some(Cursor::Ordered(key)) => Some(key),
        Some(Cursor::Near { .. }) => return Err(ParamError::new("_cursor", "_cursor is from a near search")),
    };
    let candidates = candidates(directory, query.kind, &query.filters, after);
    let mut matching = candidates.filter(|item| directory.matches_all(*item, &query.filters));
    if counting {
        let total = matching.count();
        return Ok(Page {
            matches: Vec::new(),
            included: Vec::new(),
            next_cursor: None,
            total: Some(total),
        });
    }
    let mut matches: Vec<Match> = matching
        .by_ref()
        .take(query.count + 1)
        .map(|item| Match { item, distance: None })
        .collect();
    let next_cursor = if matches.len() > query.count {
        matches.truncate(query.count);
        matches
            .last()
            .map(|last| Cursor::Ordered(directory.order_key(last.item)).write())
    } else {
        None
    };
    let included = included(directory, query, &matches);
    Ok(Page {
        matches,
        included,
        next_cursor,
        total: None,
    })
}

/// The items to test, in id order and after `after`: the few a reference or `_id` filter
/// allows when there is such a filter, else every item of the type.
fn candidates<'s>(
    directory: &Directory<'s>,
    kind: ResourceType,
    filters: &[Filter],
    after: Option<OrderKey>,
) -> Box<dyn Iterator<Item = Item> + 's> {
    let this = *directory;
    let past = move |item: &Item| after.is_none_or(|after| this.order_key(*item) > after);
    if let Some(mut few) = narrowed(directory, kind, filters) {
        few.sort_by_key(|item| directory.order_key(*item));
        few.dedup();
        return Box::new(few.into_iter().filter(past));
    }
    let Some(after) = after else {
        return directory.all(kind);
    };
    // Resume without walking what came before, where the order allows a search.
    let snapshot = directory.snapshot;
    match kind {
        ResourceType::Location | ResourceType::HealthcareService if after.0 == 0 => {
            let by_id = &directory.index.locations_by_id;
            let start = by_id.partition_point(|ordinal| snapshot.location(*ordinal as usize).id <= after.1);
            let states = (0..crate::codes::STATES.len() as u8).map(Item::State);
            let rest = by_id[start..].iter().map(move |ordinal| match kind {
                ResourceType::Location => Item::Location(*ordinal),
                _ => Item::Service(*ordinal),
            });
            if kind == ResourceType::Location {
                Box::new(rest.chain(states))
            } else {
                Box::new(rest)
            }
        }
        ResourceType::Practitioner | ResourceType::PractitionerRole => {
            // Clinicians are in id order: the first one not before the cursor's.
            let clinicians = snapshot.clinician_count() as u32;
            let (mut start, mut end) = (0, clinicians);
            while start < end {
                let middle = start + (end - start) / 2;
                if snapshot.clinician(middle as usize).id < after.1 {
                    start = middle + 1;
                } else {
                    end = middle;
                }
            }
            if kind == ResourceType::Practitioner {
                Box::new((start..clinicians).map(Item::Practitioner).filter(past))
            } else {
                Box::new(
                    (start..clinicians)
                        .flat_map(move |clinician| this.roles_of(clinician))
                        .filter(past),
                )
            }
        }
        _ => Box::new(directory.all(kind).filter(past)),
    }
}

/// The items a reference or `_id` filter allows, when one does (a superset: every filter is
/// still tested on each).
fn narrowed(directory: &Directory<'_>, kind: ResourceType, filters: &[Filter]) -> Option<Vec<Item>> {
    let snapshot = directory.snapshot;
    let mut best: Option<Vec<Item>> = None;
    for filter in filters {
        let found: Option<Vec<Item>> = match filter {
            Filter::Token {
                name: "_id", values, ..
            } => Some(
                values
                    .iter()
                    .filter_map(|token| directory.find(kind, &token.code))
                    .collect(),
            ),
            Filter::Reference { name, values } => {
                let ids = || values.iter().map(|target| target.id.as_str());
                let locations = || {
                    ids()
                        .filter_map(crate::resources::parse_id)
                        .filter_map(|id| snapshot.location_ordinal(id))
                        .map(|ordinal| ordinal as u32)
                };
                let organisation_locations = || {
                    ids()
                        .filter_map(crate::resources::parse_id)
                        .flat_map(|id| snapshot.organisation_locations(id).iter().copied())
                };
                match (kind, *name) {
                    (ResourceType::Location, "organization") => {
                        Some(organisation_locations().map(Item::Location).collect())
                    }
                    (ResourceType::HealthcareService, "organization") => {
                        Some(organisation_locations().map(Item::Service).collect())
                    }
                    (ResourceType::HealthcareService, "location") => Some(locations().map(Item::Service).collect()),
                    (ResourceType::PractitionerRole, "location" | "service") => Some(
                        locations()
                            .flat_map(|location| directory.roles_at_location(location))
                            .collect(),
                    ),
                    (ResourceType::PractitionerRole, "organization") => Some(
                        organisation_locations()
                            .flat_map(|location| directory.roles_at_location(location))
                            .collect(),
                    ),
                    (ResourceType::PractitionerRole, "practitioner") => Some(
                        ids()
                            .filter_map(crate::resources::parse_id)
                            .filter_map(|id| snapshot.clinician_ordinal(id))
                            .flat_map(|clinician| directory.roles_of(clinician as u32))
                            .collect(),
                    ),
                    _ => None,
                }
            }
            _ => None,
        };
        if let Some(found) = found
            && best.as_ref().is_none_or(|best| found.len() < best.len())
        {
            best = Some(found);
        }
    }
    best
}

/// `near`: physical locations nearest first, ties (equal distances) by id.
fn near_search(
    directory: &Directory<'_>,
    query: &Query,
    near: crate::params::Near,
    cursor: Option<Cursor>,
    counting: bool,
) -> Page {
    let snapshot = directory.snapshot;
    let origin = LatLng {
        lat: near.lat,
        lng: near.lng,
    };
    let keep = |ordinal: usize| directory.matches_all(Item::Location(ordinal as u32), &query.filters);
    let mut walk = snapshot.nearest_physical(origin, near.radius_miles, keep).peekable();
    if counting {
        return Page {
            matches: Vec::new(),
            included: Vec::new(),
            next_cursor: None,
            total: Some(walk.count()),
        };
    }
    let id_of = |ordinal: usize| snapshot.location(ordinal).id;
    let wanted = query.count + 1;
    let mut found: Vec<(usize, f64)> = Vec::with_capacity(wanted);
    // Locations at one distance come out together; each such group is put in id order, so a
    // cursor (distance, id) says exactly where a page ends.
    while found.len() < wanted {
        let Some((ordinal, miles)) = walk.next() else { break };
        let mut group = vec![(ordinal, miles)];
        while let Some((_, next_miles)) = walk.peek() {
            if *next_miles != miles {
                break;
            }
            group.push(walk.next().expect("peeked"));
        }
        group.sort_by_key(|(ordinal, _)| id_of(*ordinal));
        for (ordinal, miles) in group {
            let after_cursor = match cursor {
                Some(Cursor::Near { miles: last, id }) => miles > last || (miles == last && id_of(ordinal) > id),
                _ => true,
            };
            if after_cursor {
                found.push((ordinal, miles));
            }
        }
    }
    let next_cursor = if found.len() > query.count {
        found.truncate(query.count);
        found.last().map(|(ordinal, miles)| {
            Cursor::Near {
                miles: *miles,
                id: id_of(*ordinal),
            }
            .write()
        })
    } else {
        None
    };
    let matches: Vec<Match> = found
        .into_iter()
        .map(|(ordinal, miles)| Match {
            item: Item::Location(ordinal as u32),
            distance: Some(miles / near.unit.miles()),
        })
        .collect();
    let included = included(directory, query, &matches);
    Page {
        matches,
        included,
        next_cursor,
        total: None,
    }
}

/// The resources `_include` and `_revinclude` bring, each once, in the order first named.
fn included(directory: &Directory<'_>, query: &Query, matches: &[Match]) -> Vec<Item> {
    if query.includes.is_empty() && query.revincludes.is_empty() {
        return Vec::new();
    }
    let snapshot = directory.snapshot;
    let on_page: HashSet<Item> = matches.iter().map(|found| found.item).collect();
    let mut seen: HashSet<Item> = HashSet::new();
    let mut included = Vec::new();
    let mut add = |item: Item| {
        if !on_page.contains(&item) && seen.insert(item) {
            included.push(item);
        }
    };
    for found in matches {
        match found.item {
            Item::Role {
                clinician,
                location,
                network,
            } => {
                for include in &query.includes {
                    match *include {
                        "PractitionerRole:practitioner" => add(Item::Practitioner(clinician)),
                        "PractitionerRole:location" => add(Item::Location(location)),
                        "PractitionerRole:service" => add(Item::Service(location)),
                        "PractitionerRole:organization" => {
                            let id = snapshot.organisation_of(location as usize).id;
                            if let Some(position) = directory.organisation_position(id) {
                                add(Item::Organisation(position));
                            }
                        }
                        "PractitionerRole:network" if network != crate::directory::NO_NETWORK => {
                            add(Item::Network(network));
                        }
                        _ => {}
                    }
                }
            }
            Item::Practitioner(clinician) if !query.revincludes.is_empty() => {
                directory.roles_of(clinician).into_iter().for_each(&mut add);
            }
            Item::Location(location) if !query.revincludes.is_empty() => {
                directory.roles_at_location(location).into_iter().for_each(&mut add);
            }
            Item::Organisation(position) if !query.revincludes.is_empty() => {
                let id = snapshot.organisations()[position as usize].id;
                let mut locations: Vec<u32> = snapshot.organisation_locations(id).to_vec();
                locations.sort_by_key(|ordinal| snapshot.location(*ordinal as usize).id);
                for location in locations {
                    directory.roles_at_location(location).into_iter().for_each(&mut add);
                }
            }
            _ => {}
        }
    }
    included
}

impl Page {
    /// Every item of the page, matches then includes.
    pub fn items(&self) -> impl Iterator<Item = Item> + '_ {
        self.matches
            .iter()
            .map(|found| found.item)
            .chain(self.included.iter().copied())
    }
}

/// Resources rendered as JSON, kept per snapshot (patches start a new cache) up to a budget,
/// so a page of `near` copies bytes instead of building each resource again.
pub struct RenderCache {
    rendered: RwLock<HashMap<Item, Arc<[u8]>>>,
    bytes: AtomicUsize,
    budget: usize,
}

/// Bytes of rendered resources a snapshot keeps (a Location is about 1 KB).
pub const RENDER_BUDGET: usize = 32 << 20;

impl RenderCache {
    fn new(budget: usize) -> Self {
        Self {
            rendered: RwLock::new(HashMap::new()),
            bytes: AtomicUsize::new(0),
            budget,
        }
    }

    pub fn of<'s>(directory: &Directory<'s>) -> &'s Self {
        directory.snapshot.derived(|_| Self::new(RENDER_BUDGET))
    }

    /// The item's resource as JSON.
    pub fn get(&self, directory: &Directory<'_>, item: Item) -> Arc<[u8]> {
        if let Some(found) = self.rendered.read().expect("render cache lock").get(&item) {
            return Arc::clone(found);
        }
        let resource = render(directory, item);
        let bytes: Arc<[u8]> = serde_json::to_vec(&resource).expect("a resource serialises").into();
        if self.bytes.load(Ordering::Relaxed) + bytes.len() <= self.budget {
            let mut rendered = self.rendered.write().expect("render cache lock");
            if rendered.insert(item, Arc::clone(&bytes)).is_none() {
                self.bytes.fetch_add(bytes.len(), Ordering::Relaxed);
            }
        }
        bytes
    }
}

/// A resource's JSON with `resourceType` first, where readers (and streaming parsers) look for
/// it; serde_json's maps would sort it among the other keys.
pub fn resource_json(resource: Value) -> Vec<u8> {
    let Value::Object(mut fields) = resource else {
        return serde_json::to_vec(&resource).expect("a resource serialises");
    };
    let kind = fields.remove("resourceType");
    let rest = serde_json::to_vec(&fields).expect("a resource serialises");
    let mut out = Vec::with_capacity(rest.len() + 40);
    out.extend_from_slice(b"{\"resourceType\":");
    out.extend_from_slice(&serde_json::to_vec(&kind).expect("a string serialises"));
    if rest.len() > 2 {
        out.push(b',');
        out.extend_from_slice(&rest[1..]);
    } else {
        out.push(b'}');
    }
    out
}

/// The item's resource.
pub fn render(directory: &Directory<'_>, item: Item) -> Value {
    let snapshot = directory.snapshot;
    match item {
        Item::Organisation(position) => resources::organisation(snapshot, &snapshot.organisations()[position as usize]),
        Item::Network(position) => resources::network(&snapshot.networks()[position as usize]),
        Item::Location(ordinal) => resources::location(snapshot, ordinal as usize),
        Item::State(position) => {
            resources::state_location(crate::codes::STATES[position as usize].0).expect("a listed state")
        }
        Item::Service(ordinal) => resources::healthcare_service(snapshot, ordinal as usize),
        Item::Practitioner(ordinal) => resources::practitioner(snapshot.clinician(ordinal as usize)),
        Item::Role {
            clinician,
            location,
            network,
        } => {
            let network = (network != crate::directory::NO_NETWORK).then(|| &snapshot.networks()[network as usize]);
            resources::practitioner_role(snapshot, clinician as usize, location as usize, network)
        }
        Item::Plan(position) => resources::insurance_plan(&snapshot.insurance_plans()[position as usize]),
    }
}

/// Writes a search's Bundle. `base` is the API's address (`https://host/fhir/r4`).
pub fn write_bundle(
    directory: &Directory<'_>,
    base: &str,
    query: &Query,
    page: &Page,
    unit: Option<DistanceUnit>,
) -> Vec<u8> {
    let cache = RenderCache::of(directory);
    // Each entry's search mode, distance and rendered resource.
    type Entry = (Item, &'static str, Option<f64>, Arc<[u8]>);
    let entries: Vec<Entry> = page
        .matches
        .iter()
        .map(|found| (found.item, "match", found.distance))
        .chain(page.included.iter().map(|item| (*item, "include", None)))
        .map(|(item, mode, distance)| (item, mode, distance, cache.get(directory, item)))
        .collect();
    // Sized once from the rendered resources: a page of Locations is about 50 KB, and growing
    // a buffer to that size copied it twice over.
    let resource_bytes: usize = entries.iter().map(|entry| entry.3.len()).sum();
    let mut out = Vec::with_capacity(1024 + resource_bytes + entries.len() * (base.len() + 400));
    out.extend_from_slice(br#"{"resourceType":"Bundle","type":"searchset""#);
    if let Some(total) = page.total {
        out.extend_from_slice(format!(r#","total":{total}"#).as_bytes());
    }
    out.extend_from_slice(br#","link":[{"relation":"self","url":"#);
    write_json_string(&mut out, &link(base, query, query.cursor.as_deref()));
    out.push(b'}');
    if let Some(next) = &page.next_cursor {
        out.extend_from_slice(br#",{"relation":"next","url":"#);
        write_json_string(&mut out, &link(base, query, Some(next)));
        out.push(b'}');
    }
    out.push(b']');
    let mut first = true;
    for (item, mode, distance, resource) in entries {
        out.extend_from_slice(if first { br#","entry":["# } else { b"," });
        first = false;
        out.extend_from_slice(br#"{"fullUrl":"#);
        let kind = Directory::kind_of(item);
        write_json_string(&mut out, &format!("{base}/{kind}/{}", directory.id(item)));
        out.extend_from_slice(br#","resource":"#);
        out.extend_from_slice(&resource);
        out.extend_from_slice(br#","search":{"mode":""#);
        out.extend_from_slice(mode.as_bytes());
        out.push(b'"');
        if let (Some(distance), Some(unit)) = (distance, unit) {
            // To a ten-thousandth of the unit, as the marketplace writes miles.
            let value = (distance * 10_000.0).round() / 10_000.0;
            out.extend_from_slice(
                format!(
                    r#","extension":[{{"url":"{EXT_LOCATION_DISTANCE}","valueDistance":{{"value":{value},"unit":"{code}","system":"http://unitsofmeasure.org","code":"{code}"}}}}]"#,
                    code = unit.code()
                )
                .as_bytes(),
            );
        }
        out.extend_from_slice(b"}}");
    }
    if !first {
        out.push(b']');
    }
    out.push(b'}');
    out
}

/// The search's own link, or its next page's.
fn link(base: &str, query: &Query, cursor: Option<&str>) -> String {
    let mut serializer = form_urlencoded::Serializer::new(String::new());
    for (key, value) in &query.echo {
        serializer.append_pair(key, value);
    }
    if let Some(cursor) = cursor {
        serializer.append_pair("_cursor", cursor);
    }
    let encoded = serializer.finish();
    if encoded.is_empty() {
        format!("{base}/{}", query.kind)
    } else {
        format!("{base}/{}?{encoded}", query.kind)
    }
}

fn write_json_string(out: &mut Vec<u8>, text: &str) {
    serde_json::to_writer(&mut *out, text).expect("a string serialises");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursors_read_back_and_refuse_what_we_did_not_write() {
        for cursor in [
            Cursor::Ordered((0, 12, 5, 0)),
            Cursor::Ordered((1, 3, 0, 0)),
            Cursor::Near { miles: 1.25, id: 77 },
        ] {
            assert_eq!(Cursor::parse(&cursor.write()).unwrap(), cursor);
        }
        for bad in ["", "k1.2", "kx.1.2.3", "n.5", "nzz.5", "q1.2.3.4"] {
            assert_eq!(Cursor::parse(bad).unwrap_err().parameter, "_cursor", "{bad}");
        }
    }
}
