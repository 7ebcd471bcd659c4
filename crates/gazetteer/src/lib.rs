//! The offline US gazetteer: ZIP centroids, cities with populations, geocoding, reverse
//! geocoding and place autocomplete, from the files in `data/gazetteer` (compiled in).

use std::collections::HashMap;

use domain::{LatLng, ZipCode};
use rstar::{AABB, PointDistance, RStarInsertionStrategy, RTree, RTreeObject, RTreeParams};
use serde::Serialize;

use crate::state_grid::{CellState, StateGrid};

mod state_grid;

const ZIPS_CSV: &str = include_str!("../../../data/gazetteer/zips.csv");
const CITIES_CSV: &str = include_str!("../../../data/gazetteer/cities.csv");
/// Reverse geocoding answers "no place" beyond this distance from the nearest ZIP centroid
/// (the ocean, another country): the widest ZCTAs (rural Alaska, Nevada) put a place at most
/// some tens of miles from its centroid.
pub const MAX_REVERSE_GEOCODE_MILES: f64 = 60.0;

/// A ZIP code's centroid and its city.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ZipPlace {
    pub zip: String,
    pub position: LatLng,
    pub city: String,
    pub state: String,
}

/// A populated place.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct City {
    pub name: String,
    pub state: String,
    pub position: LatLng,
    pub population: u32,
}

/// A geocoding answer: where the text points and how we would write it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Geocoded {
    pub position: LatLng,
    pub formatted_address: String,
    pub zip: Option<String>,
    pub state: String,
}

/// One autocomplete suggestion.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Suggestion {
    /// Text to show and to put in the search box, e.g. "Denver, CO" or "80202 Denver, CO".
    pub label: String,
    pub position: LatLng,
    pub kind: SuggestionKind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SuggestionKind {
    Zip,
    City,
}

/// Nodes of up to 32 entries where rstar's default is 6, as the search's own R-tree has: a
/// search finds its origin's state through the nearest ZIP, and a shallower tree reads fewer
/// nodes from cold memory (from the load test's 200 origins, each after an 8 MiB sweep: a
/// median of 4.8 µs against 5.5, eight alternating runs on 2026-11-28).
struct WideNodes;

impl RTreeParams for WideNodes {
    const MIN_SIZE: usize = 16;
    const MAX_SIZE: usize = 32;
    const REINSERTION_COUNT: usize = 10;
    type DefaultInsertionStrategy = RStarInsertionStrategy;
}

struct IndexedZip {
    unit: [f64; 3],
    position: usize,
}

impl RTreeObject for IndexedZip {
    type Envelope = AABB<[f64; 3]>;
    fn envelope(&self) -> Self::Envelope {
        AABB::from_point(self.unit)
    }
}

impl PointDistance for IndexedZip {
    fn distance_2(&self, point: &[f64; 3]) -> f64 {
        (0..3).map(|axis| (self.unit[axis] - point[axis]).powi(2)).sum()
    }
}

/// The gazetteer, loaded once and shared.
pub struct Gazetteer {
    zips: Vec<ZipPlace>,
    zip_positions: HashMap<String, usize>,
    zip_tree: RTree<IndexedZip, WideNodes>,
    /// The states of the ZIPs, sorted, for the state grid's cells to name by index.
    states: Vec<String>,
    state_grid: StateGrid,
    /// Sorted by population, largest first.
    cities: Vec<City>,
    /// Lower-cased city names with their positions in `cities`, sorted by name then population.
    city_names: Vec<(String, usize)>,
}

impl Gazetteer {
    /// Parses the compiled-in data files (about 20 ms).
    pub fn embedded() -> Self {
        let zips: Vec<ZipPlace> = ZIPS_CSV
            .lines()
            .skip(1)
            .filter_map(|line| {
                let mut fields = line.split(',');
                let zip = fields.next()?.to_owned();
                let lat = fields.next()?.parse().ok()?;
                let lng = fields.next()?.parse().ok()?;
                let city = fields.next()?.to_owned();
                let state = fields.next()?.to_owned();
                Some(ZipPlace {
                    zip,
                    position: LatLng::new(lat, lng)?,
                    city,
                    state,
                })
            })
            .collect();
        let zip_positions = zips
            .iter()
            .enumerate()
            .map(|(position, place)| (place.zip.clone(), position))
            .collect();
        let zip_tree = RTree::bulk_load_with_params(
            zips.iter()
                .enumerate()
                .map(|(position, place)| IndexedZip {
                    unit: place.position.unit_vector(),
                    position,
                })
                .collect(),
        );
        let mut states: Vec<String> = zips.iter().map(|place| place.state.clone()).collect();
        states.sort();
        states.dedup();
        let state_grid = StateGrid::covering(zips.iter().map(|place| place.position));
        let cities: Vec<City> = CITIES_CSV
            .lines()
            .skip(1)
            .filter_map(|line| {
                let mut fields = line.split(',');
                let name = fields.next()?.to_owned();
                let state = fields.next()?.to_owned();
                let lat = fields.next()?.parse().ok()?;
                let lng = fields.next()?.parse().ok()?;
                let population = fields.next()?.parse().ok()?;
                Some(City {
                    name,
                    state,
                    position: LatLng::new(lat, lng)?,
                    population,
                })
            })
            .collect();
        let mut city_names: Vec<(String, usize)> = cities
            .iter()
            .enumerate()
            .map(|(position, city)| (city.name.to_lowercase(), position))
            .collect();
        city_names.sort();
        Self {
            zips,
            zip_positions,
            zip_tree,
            states,
            state_grid,
            cities,
            city_names,
        }
    }

    pub fn zips(&self) -> &[ZipPlace] {
        &self.zips
    }

    /// Cities, largest population first.
    pub fn cities(&self) -> &[City] {
        &self.cities
    }

    pub fn zip(&self, zip: ZipCode) -> Option<&ZipPlace> {
        self.zip_positions
            .get(zip.as_str())
            .map(|position| &self.zips[*position])
    }

    /// Returns the ZIP whose centroid is nearest to `position`.
    pub fn nearest_zip(&self, position: LatLng) -> Option<&ZipPlace> {
        self.zip_tree
            .nearest_neighbor(position.unit_vector())
            .map(|indexed| &self.zips[indexed.position])
    }

    /// The state of [`Self::nearest_zip`], found in the state grid for most positions (see
    /// `state_grid`).
    pub fn nearest_zip_state(&self, position: LatLng) -> Option<&str> {
        let state = match self.state_grid.state_at(position) {
            CellState::State(index) => Some(index),
            CellState::Mixed => None,
            CellState::Unsettled(cell) => self.settle(cell),
        };
        match state {
            Some(index) => Some(&self.states[index]),
            None => self.nearest_zip(position).map(|place| place.state.as_str()),
        }
    }

    /// Finds whether every position of a grid cell has its nearest ZIP in one state, records
    /// it in the grid and answers that state's index.
    fn settle(&self, cell: usize) -> Option<usize> {
        let (centre, reach) = self.state_grid.centre_and_reach(cell);
        let nearest = self.zip_tree.nearest_neighbor(centre)?;
        let state = &self.zips[nearest.position].state;
        let limit = nearest.distance_2(&centre).sqrt() + 2.0 * reach + 1e-12;
        let one_state = self
            .zip_tree
            .locate_within_distance(centre, limit * limit)
            .all(|zip| self.zips[zip.position].state == *state);
        let index = if one_state {
            self.states.binary_search(state).ok()
        } else {
            None
        };
        self.state_grid.settle(cell, index);
        index
    }

    /// Returns the ZIPs with the `count` nearest centroids.
    pub fn nearest_zips(&self, position: LatLng, count: usize) -> impl Iterator<Item = &ZipPlace> {
        self.zip_tree
            .nearest_neighbor_iter(position.unit_vector())
            .take(count)
            .map(|indexed| &self.zips[indexed.position])
    }

    /// Turns an address, "City, ST", a city name or a ZIP into a position. A ZIP anywhere in
    /// the text wins, since it is the most precise thing the gazetteer knows.
    pub fn geocode(&self, text: &str) -> Option<Geocoded> {
        let text = text.trim();
        if text.is_empty() || text.len() > 300 {
            return None;
        }
        if let Some(place) = ZipCode::extract(text).and_then(|zip| self.zip(zip)) {
            return Some(self.geocoded_zip(place));
        }
        let city = self.find_city(text)?;
        let zip = self.nearest_zip(city.position);
        Some(Geocoded {
            position: city.position,
            formatted_address: format!("{}, {}, USA", city.name, city.state),
            zip: zip.filter(|zip| zip.state == city.state).map(|zip| zip.zip.clone()),
            state: city.state.clone(),
        })
    }

    /// Describes the place at a position by its nearest ZIP; `None` farther than
    /// [`MAX_REVERSE_GEOCODE_MILES`] from every ZIP.
    pub fn reverse_geocode(&self, position: LatLng) -> Option<Geocoded> {
        let place = self.nearest_zip(position)?;
        if domain::geo::haversine_miles(position, place.position) > MAX_REVERSE_GEOCODE_MILES {
            return None;
        }
        Some(Geocoded {
            position,
            ..self.geocoded_zip(place)
        })
    }

    /// The nearest ZIP to a position however far it is, at that ZIP's own centroid: where a
    /// search over open water (a map centred off the coast) can stand instead.
    pub fn nearest_place(&self, position: LatLng) -> Option<Geocoded> {
        self.nearest_zip(position).map(|place| self.geocoded_zip(place))
    }

    fn geocoded_zip(&self, place: &ZipPlace) -> Geocoded {
        Geocoded {
            position: place.position,
            formatted_address: format!("{}, {} {}, USA", place.city, place.state, place.zip),
            zip: Some(place.zip.clone()),
            state: place.state.clone(),
        }
    }

    /// Finds a city from "City", "City, ST", "City ST" or "Street, City, ST" text.
    fn find_city(&self, text: &str) -> Option<&City> {
        let parts: Vec<&str> = text.split(',').map(str::trim).filter(|part| !part.is_empty()).collect();
        let state_hint = parts
            .last()
            .and_then(|last| last.split_whitespace().next())
            .filter(|word| word.len() == 2 && word.chars().all(|c| c.is_ascii_alphabetic()))
            .map(str::to_ascii_uppercase);
        // "Denver CO": the trailing word is a state when it names one.
        if let [single] = parts.as_slice()
            && let Some((name, state)) = single.rsplit_once(' ')
            && state.len() == 2
        {
            return self
                .city_named(&name.to_lowercase(), Some(&state.to_ascii_uppercase()))
                .or_else(|| self.city_named(&single.to_lowercase(), None));
        }
        let candidates: Vec<String> = parts.iter().map(|part| part.to_lowercase()).collect();
        candidates
            .iter()
            .rev()
            .find_map(|candidate| self.city_named(candidate, state_hint.as_deref()))
    }

    fn city_named(&self, lowercase_name: &str, state: Option<&str>) -> Option<&City> {
        let start = self
            .city_names
            .partition_point(|(name, _)| name.as_str() < lowercase_name);
        self.city_names[start..]
            .iter()
            .take_while(|(name, _)| name == lowercase_name)
            .map(|(_, position)| &self.cities[*position])
            .filter(|city| state.is_none_or(|state| city.state == state))
            .max_by_key(|city| city.population)
    }

    /// Suggests ZIPs (for digits) or cities (for words), most populous first. "den" suggests
    /// Denver, CO; "802" suggests 80202 and its neighbours; "springfield, il" narrows by state.
    pub fn autocomplete(&self, input: &str, limit: usize) -> Vec<Suggestion> {
        let input = input.trim();
        if input.is_empty() || input.len() > 100 {
            return Vec::new();
        }
        if input.bytes().all(|b| b.is_ascii_digit()) {
            let start = self.zips.partition_point(|place| place.zip.as_str() < input);
            return self.zips[start..]
                .iter()
                .take_while(|place| place.zip.starts_with(input))
                .take(limit)
                .map(|place| Suggestion {
                    label: format!("{} {}, {}", place.zip, place.city, place.state),
                    position: place.position,
                    kind: SuggestionKind::Zip,
                })
                .collect();
        }
        let (name_part, state_part) = match input.split_once(',') {
            Some((name, state)) => (name.trim(), Some(state.trim().to_ascii_uppercase())),
            None => (input, None),
        };
        let prefix = name_part.to_lowercase();
        let start = self
            .city_names
            .partition_point(|(name, _)| name.as_str() < prefix.as_str());
        let mut matches: Vec<&City> = self.city_names[start..]
            .iter()
            .take_while(|(name, _)| name.starts_with(&prefix))
            .map(|(_, position)| &self.cities[*position])
            .filter(|city| state_part.as_deref().is_none_or(|state| city.state.starts_with(state)))
            .collect();
        matches.sort_by_key(|city| std::cmp::Reverse(city.population));
        let mut seen = std::collections::HashSet::new();
        matches
            .into_iter()
            .filter(|city| seen.insert((city.name.as_str(), city.state.as_str())))
            .take(limit)
            .map(|city| Suggestion {
                label: format!("{}, {}", city.name, city.state),
                position: city.position,
                kind: SuggestionKind::City,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gazetteer() -> &'static Gazetteer {
        static GAZETTEER: std::sync::OnceLock<Gazetteer> = std::sync::OnceLock::new();
        GAZETTEER.get_or_init(Gazetteer::embedded)
    }

    #[test]
    fn loads_every_zip_and_city() {
        assert!(gazetteer().zips().len() > 33_000);
        assert!(gazetteer().cities().len() > 17_000);
        assert_eq!(gazetteer().cities()[0].name, "New York City");
    }

    #[test]
    fn geocodes_a_zip_inside_an_address() {
        let answer = gazetteer().geocode("1777 Broadway, Boulder, CO 80302").unwrap();
        assert_eq!(answer.zip.as_deref(), Some("80302"));
        assert_eq!(answer.formatted_address, "Boulder, CO 80302, USA");
        // 20500 has no Census centroid (a single-building ZIP): the city answers instead.
        let fallback = gazetteer()
            .geocode("1600 Pennsylvania Ave NW, Washington, DC 20500")
            .unwrap();
        assert_eq!(fallback.state, "DC");
        assert!((fallback.position.lat - 38.9).abs() < 0.1);
    }

    #[test]
    fn geocodes_city_and_state_forms() {
        for text in ["Denver, CO", "Denver CO", "denver", "12 Main St, Denver, CO"] {
            let answer = gazetteer().geocode(text).unwrap_or_else(|| panic!("{text}"));
            assert_eq!(answer.state, "CO", "{text}");
            assert!((answer.position.lng + 104.99).abs() < 0.2, "{text}");
        }
        let springfield = gazetteer().geocode("Springfield, IL").unwrap();
        assert_eq!(springfield.state, "IL");
        assert!(gazetteer().geocode("Qwxyz").is_none());
        assert!(gazetteer().geocode("").is_none());
    }

    #[test]
    fn a_point_far_from_every_zip_has_no_place() {
        let gazetteer = gazetteer();
        assert!(gazetteer.reverse_geocode(LatLng::new(0.0, 0.0).unwrap()).is_none());
        assert!(gazetteer.reverse_geocode(LatLng::new(30.0, -40.0).unwrap()).is_none());
        // A remote but inhabited place still answers its ZIP.
        assert!(
            gazetteer
                .reverse_geocode(LatLng::new(64.8378, -147.7164).unwrap())
                .is_some()
        );
    }

    #[test]
    fn reverse_geocodes_to_the_nearest_zip() {
        let answer = gazetteer()
            .reverse_geocode(LatLng::new(40.7506, -73.9973).unwrap())
            .unwrap();
        assert_eq!(answer.zip.as_deref(), Some("10001"));
    }

    #[test]
    fn the_nearest_zip_is_the_one_a_scan_of_every_zip_finds() {
        let gazetteer = gazetteer();
        let chord_2 = |a: [f64; 3], b: [f64; 3]| (0..3).map(|axis| (a[axis] - b[axis]).powi(2)).sum::<f64>();
        let units: Vec<[f64; 3]> = gazetteer
            .zips()
            .iter()
            .map(|place| place.position.unit_vector())
            .collect();
        // A lattice over the states and territories, offshore points included, and every 197th
        // ZIP's own centroid nudged off it.
        let lattice = (0..20).flat_map(|row| {
            (0..30)
                .map(move |column| LatLng::new(14.0 + 3.0 * f64::from(row), -179.0 + 12.0 * f64::from(column)).unwrap())
        });
        let nudged = gazetteer
            .zips()
            .iter()
            .step_by(197)
            .map(|place| LatLng::new(place.position.lat + 0.003, place.position.lng - 0.002).unwrap());
        for position in lattice.chain(nudged) {
            let unit = position.unit_vector();
            let scanned = units
                .iter()
                .map(|zip| chord_2(*zip, unit))
                .fold(f64::INFINITY, f64::min);
            let found = gazetteer.nearest_zip(position).unwrap();
            assert_eq!(chord_2(found.position.unit_vector(), unit), scanned, "{position:?}");
        }
    }

    #[test]
    fn the_state_grid_answers_the_state_of_the_nearest_zip() {
        // A gazetteer of its own, so every cell starts unsettled.
        let gazetteer = Gazetteer::embedded();
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut uniform = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 11) as f64 / (1u64 << 53) as f64
        };
        let mut positions = Vec::new();
        // The contiguous states, then Alaska and Hawaii.
        for (south, west, height, width, count) in [
            (24.5, -125.0, 25.0, 58.0, 20_000),
            (54.0, -168.0, 17.0, 38.0, 1_000),
            (18.5, -161.0, 4.0, 6.5, 1_000),
        ] {
            for _ in 0..count {
                positions.push(LatLng::new(south + height * uniform(), west + width * uniform()).unwrap());
            }
        }
        // Centroids moved a little way off: ZIPs crowd the state lines of the populated east.
        for place in gazetteer.zips.iter().step_by(5) {
            let (lat, lng) = (
                place.position.lat + 0.08 * (uniform() - 0.5),
                place.position.lng + 0.08 * (uniform() - 0.5),
            );
            positions.push(LatLng::new(lat, lng).unwrap());
        }
        let (mut one_state, mut mixed) = (0, 0);
        for position in positions {
            let expected = gazetteer.nearest_zip(position).map(|place| place.state.as_str());
            // Once settling the cell, once from the settled cell.
            assert_eq!(gazetteer.nearest_zip_state(position), expected, "{position:?}");
            assert_eq!(gazetteer.nearest_zip_state(position), expected, "{position:?}");
            match gazetteer.state_grid.state_at(position) {
                CellState::State(_) => one_state += 1,
                CellState::Mixed => mixed += 1,
                CellState::Unsettled(_) => panic!("{position:?} was asked about, so its cell is settled"),
            }
        }
        assert!(
            one_state > 20_000 && mixed > 500,
            "{one_state} in one state, {mixed} mixed"
        );
    }

    #[test]
    fn autocompletes_cities_by_population_and_zips_by_prefix() {
        let cities = gazetteer().autocomplete("den", 5);
        assert_eq!(cities[0].label, "Denver, CO");
        let narrowed = gazetteer().autocomplete("springfield, il", 5);
        assert!(narrowed.iter().all(|s| s.label.ends_with(", IL")) && !narrowed.is_empty());
        let zips = gazetteer().autocomplete("1000", 3);
        assert_eq!(zips.len(), 3);
        assert!(zips.iter().all(|s| s.label.starts_with("1000")));
    }
}
