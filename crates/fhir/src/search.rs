//! Answering a search from a snapshot: candidates in id order (or nearest first for `near`),
//! the filters, the page after a cursor, the included resources, and the Bundle's JSON.

use std::borrow::Cow;
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
    let after_cursor = |ordinal: usize, miles: f64| match cursor {
        Some(Cursor::Near { miles: last, id }) => miles > last || (miles == last && id_of(ordinal) > id),
        _ => true,
    };
    while found.len() < wanted {
        let Some((ordinal, miles)) = walk.next() else { break };
        let group_start = found.len();
        let mut next = Some((ordinal, miles));
        while let Some((ordinal, miles)) = next {
            if after_cursor(ordinal, miles) {
                found.push((ordinal, miles));
            }
            next = walk.next_if(|(_, next_miles)| *next_miles == miles);
        }
        found[group_start..].sort_by_key(|(ordinal, _)| id_of(*ordinal));
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

/// A resource rendered as JSON, kept as the tail of its search entry's start:
/// `Kind/id","resource":{…}`, which follows `{"fullUrl":"` and the escaped base and `/`. A page
/// copies each entry's start in one piece; a read answers the resource, a slice of the same bytes.
#[derive(Clone)]
pub struct Rendered {
    entry_tail: Arc<[u8]>,
    resource_at: usize,
}

impl Rendered {
    fn new(directory: &Directory<'_>, item: Item) -> Self {
        let url = serde_json::to_vec(&format!("{}/{}", Directory::kind_of(item), directory.id(item)))
            .expect("a string serialises");
        let resource = serde_json::to_vec(&render(directory, item)).expect("a resource serialises");
        // The URL without its opening quote: the base before it is written without its closing one.
        let mut entry_tail = Vec::with_capacity(url.len() + RESOURCE_KEY.len() + resource.len());
        entry_tail.extend_from_slice(&url[1..]);
        entry_tail.extend_from_slice(RESOURCE_KEY);
        let resource_at = entry_tail.len();
        entry_tail.extend_from_slice(&resource);
        Self {
            entry_tail: entry_tail.into(),
            resource_at,
        }
    }

    /// The resource's JSON.
    pub fn resource(&self) -> &[u8] {
        &self.entry_tail[self.resource_at..]
    }

    /// Bytes this keeps, for the cache's budget.
    fn size(&self) -> usize {
        self.entry_tail.len() + std::mem::size_of::<Self>()
    }
}

const RESOURCE_KEY: &[u8] = br#","resource":"#;

/// Resources rendered as JSON, kept per snapshot (patches start a new cache) up to a budget,
/// so a page of `near` copies bytes instead of building each resource again. Locations, which
/// `near` pages are made of, are found by ordinal without a lock or a hash (a page reads 20);
/// other resources in a map.
pub struct RenderCache {
    locations: ByOrdinal,
    others: RwLock<HashMap<Item, Rendered>>,
    bytes: AtomicUsize,
    budget: usize,
}

/// Bytes of rendered resources a snapshot keeps (a Location is about 2.5 KB).
pub const RENDER_BUDGET: usize = 32 << 20;

impl RenderCache {
    fn new(location_count: usize, budget: usize) -> Self {
        Self {
            locations: ByOrdinal::new(location_count),
            others: RwLock::new(HashMap::new()),
            bytes: AtomicUsize::new(0),
            budget,
        }
    }

    pub fn of<'s>(directory: &Directory<'s>) -> &'s Self {
        directory
            .snapshot
            .derived(|snapshot| Self::new(snapshot.location_count(), RENDER_BUDGET))
    }

    /// The item's resource, rendered: a Location the cache keeps is lent, not cloned (an Arc
    /// clone and drop per entry were two locked operations on cold lines, and the locks kept a
    /// page's lookups from overlapping).
    pub fn get(&self, directory: &Directory<'_>, item: Item) -> Cow<'_, Rendered> {
        if let Item::Location(ordinal) = item
            && self.locations.covers(ordinal as usize)
        {
            let ordinal = ordinal as usize;
            if let Some(found) = self.locations.get(ordinal) {
                return Cow::Borrowed(found);
            }
            let rendered = Rendered::new(directory, item);
            // The chunk counts too when this makes it; given back when another request made it
            // first, or kept the same location first.
            let chunk_cost = self.locations.chunk_cost(ordinal);
            let size = rendered.size();
            if self.reserve(size + chunk_cost) {
                let (kept, rendered_kept, chunk_made) = self.locations.fill(ordinal, rendered);
                let unused = if chunk_made { 0 } else { chunk_cost } + if rendered_kept { 0 } else { size };
                self.bytes.fetch_sub(unused, Ordering::Relaxed);
                return Cow::Borrowed(kept);
            }
            return Cow::Owned(rendered);
        }
        if let Some(found) = self.others.read().expect("render cache lock").get(&item) {
            return Cow::Owned(found.clone());
        }
        let rendered = Rendered::new(directory, item);
        if self.reserve(rendered.size()) {
            let mut others = self.others.write().expect("render cache lock");
            if others.insert(item, rendered.clone()).is_some() {
                self.bytes.fetch_sub(rendered.size(), Ordering::Relaxed);
            }
        }
        Cow::Owned(rendered)
    }

    /// Counts `bytes` against the budget if they fit in it.
    fn reserve(&self, bytes: usize) -> bool {
        self.bytes
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |kept| {
                (kept + bytes <= self.budget).then_some(kept + bytes)
            })
            .is_ok()
    }
}

/// Locations per chunk of [`ByOrdinal`]. Ordinals are in Morton order, but the 20 nearest of a
/// place still fall in several chunks: with 256 a chunk (8 KB) the load test's 4,000 Locations
/// used up the budget in chunks; with 32 (1 KB) they take at most 4 MB, and the chunks' index is
/// 31,250 entries (750 KB) at a million locations.
const CHUNK: usize = 32;

/// Rendered locations by ordinal, each chunk allocated when the first of its locations is kept.
type ByOrdinal = search::slots::ChunkedSlots<Rendered, CHUNK>;

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
    type Entry<'c> = (&'static str, Option<f64>, Cow<'c, Rendered>);
    let entries: Vec<Entry<'_>> = page
        .matches
        .iter()
        .map(|found| (found.item, "match", found.distance))
        .chain(page.included.iter().map(|item| (*item, "include", None)))
        .map(|(item, mode, distance)| (mode, distance, cache.get(directory, item)))
        .collect();
    // `{"fullUrl":"BASE/`, escaped once for every entry; each entry's rendered start goes on
    // from there.
    let mut entry_head = br#"{"fullUrl":"#.to_vec();
    write_json_string(&mut entry_head, &format!("{base}/"));
    entry_head.pop();
    let distance = unit.map(DistanceExtension::new);
    // Sized once from the rendered resources: a page of Locations is about 50 KB, and growing
    // a buffer to that size copied it twice over.
    let entry_bytes: usize = entries
        .iter()
        .map(|entry| entry_head.len() + entry.2.entry_tail.len() + 40)
        .sum();
    let distance_bytes = distance.as_ref().map_or(0, |distance| distance.len() + 24) * page.matches.len();
    let mut out = Vec::with_capacity(1024 + 2 * base.len() + entry_bytes + distance_bytes);
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
    for (mode, entry_distance, rendered) in entries {
        out.extend_from_slice(if first { br#","entry":["# } else { b"," });
        first = false;
        out.extend_from_slice(&entry_head);
        out.extend_from_slice(&rendered.entry_tail);
        out.extend_from_slice(br#","search":{"mode":""#);
        out.extend_from_slice(mode.as_bytes());
        out.push(b'"');
        if let (Some(value), Some(distance)) = (entry_distance, &distance) {
            distance.write(&mut out, value);
        }
        out.extend_from_slice(b"}}");
    }
    if !first {
        out.push(b']');
    }
    out.push(b'}');
    out
}

/// A match's `location-distance` extension, written around its value.
struct DistanceExtension {
    before: String,
    after: String,
}

impl DistanceExtension {
    fn new(unit: DistanceUnit) -> Self {
        let code = unit.code();
        Self {
            before: format!(r#","extension":[{{"url":"{EXT_LOCATION_DISTANCE}","valueDistance":{{"value":"#),
            after: format!(r#","unit":"{code}","system":"http://unitsofmeasure.org","code":"{code}"}}}}]"#),
        }
    }

    fn len(&self) -> usize {
        self.before.len() + self.after.len()
    }

    fn write(&self, out: &mut Vec<u8>, distance: f64) {
        out.extend_from_slice(self.before.as_bytes());
        write_ten_thousandths(out, distance);
        out.extend_from_slice(self.after.as_bytes());
    }
}

/// A distance to a ten-thousandth of its unit, as the marketplace writes miles: the digits of
/// `(distance * 10_000.0).round() / 10_000.0` as Rust writes that f64 (`12.5`, `0.0042`, `3`),
/// from the integer count of ten-thousandths, without float formatting. The f64 is the one
/// nearest that decimal, and no shorter decimal is as near, so its shortest form is the decimal.
fn write_ten_thousandths(out: &mut Vec<u8>, distance: f64) {
    use std::io::Write as _;
    let ten_thousandths = (distance * 10_000.0).round();
    if ten_thousandths.is_sign_negative() || ten_thousandths > 1e15 {
        // Not met (distances are positive and within a radius), but written all the same.
        write!(out, "{}", ten_thousandths / 10_000.0).expect("writing to a Vec");
        return;
    }
    let ten_thousandths = ten_thousandths as u64;
    let (whole, mut fraction) = (ten_thousandths / 10_000, ten_thousandths % 10_000);
    write!(out, "{whole}").expect("writing to a Vec");
    if fraction > 0 {
        let mut digits = 4;
        while fraction % 10 == 0 {
            fraction /= 10;
            digits -= 1;
        }
        write!(out, ".{fraction:0digits$}").expect("writing to a Vec");
    }
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
    use gazetteer::Gazetteer;
    use search::{Snapshot, SnapshotInput};
    use serde_json::json;

    use super::*;

    /// Bytes of one chunk of the render cache's slots, counted against its budget.
    const CHUNK_BYTES: usize = ByOrdinal::CHUNK_BYTES;

    const BASE: &str = "https://directory.example/fhir/r4";

    fn seeded_snapshot() -> Snapshot {
        let config = seed::SeedConfig {
            clinics: 400,
            clinicians: 300,
            seed: 5,
        };
        let catalogue = seed::generate(&config, &Gazetteer::embedded());
        Snapshot::build(SnapshotInput::from(catalogue), None).expect("a snapshot")
    }

    /// The Bundle built value by value from fresh renders: what `write_bundle` must write.
    fn bundle_from_fresh_renders(directory: &Directory<'_>, query: &Query, page: &Page) -> Value {
        let mut links = vec![json!({ "relation": "self", "url": link(BASE, query, query.cursor.as_deref()) })];
        if let Some(next) = &page.next_cursor {
            links.push(json!({ "relation": "next", "url": link(BASE, query, Some(next)) }));
        }
        let unit = query.near.map(|near| near.unit);
        let entries: Vec<Value> = page
            .matches
            .iter()
            .map(|found| (found.item, "match", found.distance))
            .chain(page.included.iter().map(|item| (*item, "include", None)))
            .map(|(item, mode, distance)| {
                let mut search = json!({ "mode": mode });
                if let (Some(distance), Some(unit)) = (distance, unit) {
                    // Written as Rust writes an f64, as the writer before the cache did.
                    let value: Value = format!("{}", (distance * 10_000.0).round() / 10_000.0).parse().unwrap();
                    search["extension"] = json!([{
                        "url": EXT_LOCATION_DISTANCE,
                        "valueDistance": { "value": value, "unit": unit.code(), "system": "http://unitsofmeasure.org", "code": unit.code() }
                    }]);
                }
                json!({
                    "fullUrl": format!("{BASE}/{}/{}", Directory::kind_of(item), directory.id(item)),
                    "resource": render(directory, item),
                    "search": search,
                })
            })
            .collect();
        let mut bundle = json!({ "resourceType": "Bundle", "type": "searchset", "link": links });
        if !entries.is_empty() {
            bundle["entry"] = Value::Array(entries);
        }
        bundle
    }

    fn pairs(query: &[(&str, String)]) -> Vec<(String, String)> {
        query
            .iter()
            .map(|(key, value)| ((*key).to_owned(), value.clone()))
            .collect()
    }

    #[test]
    fn near_pages_from_the_render_cache_are_the_bundles_of_fresh_renders() {
        let snapshot = seeded_snapshot();
        let directory = Directory::new(&snapshot);
        let origin = snapshot.location(0);
        // Far enough to reach most of the seeded country, in pages of 50.
        let near = format!("{}|{}|5000|km", origin.lat, origin.lng);
        let count = || ("_count", "50".to_owned());
        let mut query = crate::parse_query(ResourceType::Location, &pairs(&[("near", near.clone()), count()])).unwrap();
        let mut pages = 0;
        loop {
            let page = search(&directory, &query).unwrap();
            let expected = bundle_from_fresh_renders(&directory, &query, &page);
            // Cold (rendered now), then warm (every entry from the cache): the same bytes.
            let cold = write_bundle(&directory, BASE, &query, &page, Some(DistanceUnit::Kilometres));
            let warm = write_bundle(&directory, BASE, &query, &page, Some(DistanceUnit::Kilometres));
            assert_eq!(cold, warm);
            assert_eq!(serde_json::from_slice::<Value>(&warm).unwrap(), expected);
            pages += 1;
            let Some(next) = page.next_cursor else { break };
            query = crate::parse_query(
                ResourceType::Location,
                &pairs(&[("near", near.clone()), count(), ("_cursor", next)]),
            )
            .unwrap();
        }
        assert!(pages >= 3, "the test pages through several pages ({pages})");
        // Other resources (from the map) and includes.
        let roles = crate::parse_query(
            ResourceType::PractitionerRole,
            &pairs(&[
                ("_include", "PractitionerRole:practitioner".into()),
                ("_include", "PractitionerRole:location".into()),
            ]),
        )
        .unwrap();
        let page = search(&directory, &roles).unwrap();
        assert!(!page.included.is_empty());
        for _ in 0..2 {
            let written = write_bundle(&directory, BASE, &roles, &page, None);
            assert_eq!(
                serde_json::from_slice::<Value>(&written).unwrap(),
                bundle_from_fresh_renders(&directory, &roles, &page)
            );
        }
    }

    #[test]
    fn distances_are_written_as_rust_writes_the_rounded_f64() {
        let mut state: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let exact = (0..200_000u64).map(|k| k as f64 / 10_000.0);
        let random = (0..200_000).map(|_| (next() % 1_000_000_000_000) as f64 / 1_000_000.0 * (next() % 7) as f64);
        let edges = [
            0.0,
            -0.0,
            -0.00001,
            0.00004,
            0.00005,
            0.99995,
            24_901.55,
            40_075_016.0,
            1e16,
        ];
        for distance in exact.chain(random).chain(edges) {
            let mut written = Vec::new();
            write_ten_thousandths(&mut written, distance);
            let expected = format!("{}", (distance * 10_000.0).round() / 10_000.0);
            assert_eq!(String::from_utf8(written).unwrap(), expected, "{distance}");
        }
    }

    #[test]
    fn the_render_cache_keeps_within_its_budget_and_answers_fresh_renders_beyond_it() {
        let snapshot = seeded_snapshot();
        let directory = Directory::new(&snapshot);
        let first = Rendered::new(&directory, Item::Location(0)).size();
        // The 20 nearest of a place fall in several chunks: a chunk made for one Location must
        // not cost more than half of it, or scattered pages spend the budget on chunks (with 256
        // Locations a chunk, 8 KB, the load test's 4,000 Locations did not fit in 32 MB).
        assert!(
            2 * CHUNK_BYTES <= first,
            "a chunk is {CHUNK_BYTES} bytes, a Location {first}"
        );
        // Room for one chunk and about three locations.
        let budget = CHUNK_BYTES + 3 * first + first / 2;
        let cache = RenderCache::new(snapshot.location_count(), budget);
        for round in 0..2 {
            for ordinal in (0..snapshot.location_count() as u32).step_by(7).take(40) {
                let item = Item::Location(ordinal);
                let rendered = cache.get(&directory, item);
                let resource = rendered.resource();
                let fresh = serde_json::to_vec(&render(&directory, item)).unwrap();
                assert_eq!(resource, &fresh[..], "round {round}, location {ordinal}");
            }
            let kept = cache.bytes.load(Ordering::Relaxed);
            assert!(kept <= budget, "{kept} bytes kept, budget {budget}");
            assert!(kept > CHUNK_BYTES, "some locations were kept");
        }
    }

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
