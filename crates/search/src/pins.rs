//! Pins and area pins: the physical locations a search with the same filters would list, in a
//! map box, one by one or clustered per grid cell, with the caller's favourite flag on pins.
//! Imports `plan` (filters),
//! `answer`, `snapshot`, `pin_records`, `spatial`, `morton`, `bitset` and `error`.

use domain::{LatLng, SearchFilters};
use serde::Deserialize;

use crate::answer::{
    AreaPin, AreaPinsResponse, CellBounds, Coordinates, JsonText, Pin, PinFields, PinsResponse, write_pins_json,
};
use crate::error::SearchError;
use crate::morton::CellCount;
use crate::pin_records::RecordedPin;
use crate::plan::{Favourites, LocationSet};
use crate::snapshot::Snapshot;
use crate::spatial::{MORTON_LEVELS, MapBox};

/// A pins answer lists at most this many; past it, the client asks for area pins instead.
pub const MAX_PINS: usize = 2_000;
/// Area-pin answers are cut to at most this many cells by coarsening the grid.
pub const MAX_AREA_CELLS: f64 = 4_096.0;
/// Highest map zoom accepted.
pub const MAX_ZOOM: u32 = 22;

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

/// What pins and area pins answer: a search's question without its origin. They show the
/// physical locations the search would list, except that `searchDistance` does not apply
/// (the map box bounds them); ZIP codes, which only place a search's origin, are not read.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PinFilters {
    pub filters: SearchFilters,
    /// The custom company URL alias, restricting pins to that employer's network.
    pub company_alias: Option<String>,
}

impl Snapshot {
    /// The locations pins may show. Virtual locations are in neither the Morton index nor the
    /// map's R-tree, which pins read, so the filter need not exclude them.
    fn pin_filter(
        &self,
        filters: &PinFilters,
        favourites: Option<&Favourites>,
    ) -> Result<LocationSet<'_>, SearchError> {
        self.listed_locations(&filters.filters, filters.company_alias.as_deref(), favourites)
    }

    /// Lists every matching physical location in a box for someone signed out, or says there
    /// are too many.
    pub fn pins(&self, bounds: Bounds, filters: &PinFilters) -> Result<PinsResponse<'_>, SearchError> {
        self.pins_for(bounds, filters, None)
    }

    /// Lists every matching physical location in a box, or says there are too many;
    /// `favourites` are the signed-in caller's, which flag pins and are all the `favorites`
    /// filter lets through.
    pub fn pins_for(
        &self,
        bounds: Bounds,
        filters: &PinFilters,
        favourites: Option<&Favourites>,
    ) -> Result<PinsResponse<'_>, SearchError> {
        let Some(found) = self.pin_ordinals(bounds, filters, favourites)? else {
            return Ok(PinsResponse {
                pins: Vec::new(),
                over_limit: true,
                limit: MAX_PINS,
            });
        };
        let pins = found
            .into_iter()
            .map(|ordinal| {
                let location = self.location(ordinal);
                Pin {
                    id: self.organisation_of(ordinal).id,
                    location_id: location.id,
                    name: &location.name,
                    location_name: &location.location_name,
                    coordinates: Coordinates {
                        lat: location.lat,
                        lng: location.lng,
                    },
                    new_patients: location.accepting_new_patients,
                    favorite: favourites.is_some_and(|favourites| favourites.location_ids.contains(&location.id)),
                }
            })
            .collect();
        Ok(PinsResponse {
            pins,
            over_limit: false,
            limit: MAX_PINS,
        })
    }

    /// The JSON of [`Snapshot::pins_for`]'s answer (the same bytes as its `to_json`) and how
    /// many pins it lists, written straight from the pin records and the Morton index's
    /// positions, which hold a box's pins in a few runs of adjacent memory.
    pub fn pins_json_for(
        &self,
        bounds: Bounds,
        filters: &PinFilters,
        favourites: Option<&Favourites>,
    ) -> Result<(Vec<u8>, usize), SearchError> {
        let Some(records) = self.pin_records() else {
            return self
                .pins_for(bounds, filters, favourites)
                .map(|answer| (answer.to_json(), answer.pins.len()));
        };
        let Some(found) = self.pin_ordinals(bounds, filters, favourites)? else {
            let over = PinsResponse {
                pins: Vec::new(),
                over_limit: true,
                limit: MAX_PINS,
            };
            return Ok((over.to_json(), 0));
        };
        let morton = &self.core.tables.morton;
        let pins: Vec<RecordedPin<'_>> = found.iter().map(|ordinal| records.get(*ordinal)).collect();
        // Sized once: beside its names a pin is some 130 bytes of fixed text and numbers.
        let names: usize = pins.iter().map(|pin| pin.name.len() + pin.location_name.len()).sum();
        let mut out = Vec::with_capacity(64 + names + 160 * pins.len());
        let fields = found.iter().zip(&pins).map(|(ordinal, pin)| PinFields {
            id: pin.id,
            location_id: pin.location_id,
            name: JsonText::Written(pin.name),
            location_name: JsonText::Written(pin.location_name),
            coordinates: morton.position(*ordinal).into(),
            // A patch may change this one (the row's flag is in the bitset).
            new_patients: self.bits.accepting.contains(*ordinal),
            favorite: favourites.is_some_and(|favourites| favourites.location_ids.contains(&pin.location_id)),
        });
        write_pins_json(&mut out, fields, false, MAX_PINS);
        Ok((out, pins.len()))
    }

    /// The ordinals of the matching physical locations in a box, in Morton order, or `None`
    /// when there are more than [`MAX_PINS`].
    fn pin_ordinals(
        &self,
        bounds: Bounds,
        filters: &PinFilters,
        favourites: Option<&Favourites>,
    ) -> Result<Option<Vec<usize>>, SearchError> {
        let bounds = bounds.validate()?;
        let filter = self.pin_filter(filters, favourites)?;
        // Counting is popcounts over Morton cells, so a crowded box costs no pin at all; the
        // same walk gathers the pins of a box that holds few enough.
        let mut count = 0;
        let mut found = Vec::new();
        for map_box in bounds.map_boxes() {
            let (in_box, gathered) =
                self.core
                    .tables
                    .morton
                    .count_and_gather_in_box(map_box, &filter, MAX_PINS.saturating_sub(count));
            count += in_box;
            found.extend(gathered.into_iter().flatten());
        }
        Ok((count <= MAX_PINS).then_some(found))
    }

    /// Clusters the matching physical locations in a box on a grid fitted to the zoom, for
    /// someone signed out.
    pub fn area_pins(&self, bounds: Bounds, zoom: u32, filters: &PinFilters) -> Result<AreaPinsResponse, SearchError> {
        self.area_pins_for(bounds, zoom, filters, None)
    }

    /// Clusters the matching physical locations in a box on a grid fitted to the zoom;
    /// `favourites` (the signed-in caller's) matter only to the `favorites` filter.
    pub fn area_pins_for(
        &self,
        bounds: Bounds,
        zoom: u32,
        filters: &PinFilters,
        favourites: Option<&Favourites>,
    ) -> Result<AreaPinsResponse, SearchError> {
        let bounds = bounds.validate()?;
        if zoom > MAX_ZOOM {
            return Err(SearchError::InvalidParameter(format!(
                "zoom must be between 0 and {MAX_ZOOM}"
            )));
        }
        let filter = self.pin_filter(filters, favourites)?;
        let boxes = bounds.map_boxes();
        let unit_area: f64 = boxes
            .iter()
            .map(|map_box| {
                let (x0, y0, x1, y1) = map_box.unit_rect();
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
                .tables
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
}
