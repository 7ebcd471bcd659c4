//! Geography of a snapshot.
//!
//! Physical locations are numbered in Morton (Z-order) of their Web Mercator position, so every
//! map cell at every zoom level is a contiguous range of ordinals. Counting the matches in a
//! cell is then a popcount over the filter bitset, and a radius count only looks at individual
//! locations in the cells the circle's edge crosses. Nearest-first listing and box queries use
//! rstar R-trees.

use domain::LatLng;
use rstar::{AABB, PointDistance, RTree, RTreeObject};

use crate::bitset::Bitset;

/// Bits per axis of a Morton code: level 24 cells are about 2.4 m wide at the equator.
pub const MORTON_LEVELS: u32 = 24;
/// Web Mercator's latitude limit.
const MAX_MERCATOR_LAT: f64 = 85.051_128_78;
/// Below this many locations a partially covered cell is checked one location at a time.
const SCAN_BELOW: usize = 128;

/// Returns the Web Mercator position in the unit square (x east, y south).
pub fn mercator(position: LatLng) -> (f64, f64) {
    let x = (position.lng + 180.0) / 360.0;
    let lat = position.lat.clamp(-MAX_MERCATOR_LAT, MAX_MERCATOR_LAT).to_radians();
    let y = (1.0 - (lat.tan() + 1.0 / lat.cos()).ln() / std::f64::consts::PI) / 2.0;
    (x.clamp(0.0, 1.0), y.clamp(0.0, 1.0))
}

fn inverse_mercator_lat(y: f64) -> f64 {
    let n = std::f64::consts::PI * (1.0 - 2.0 * y);
    n.sinh().atan().to_degrees()
}

/// Spreads the bits of `value` to the even bit positions of a u64.
fn spread_bits(value: u32) -> u64 {
    let mut spread = u64::from(value);
    spread = (spread | (spread << 16)) & 0x0000_ffff_0000_ffff;
    spread = (spread | (spread << 8)) & 0x00ff_00ff_00ff_00ff;
    spread = (spread | (spread << 4)) & 0x0f0f_0f0f_0f0f_0f0f;
    spread = (spread | (spread << 2)) & 0x3333_3333_3333_3333;
    (spread | (spread << 1)) & 0x5555_5555_5555_5555
}

/// Returns the 48-bit Morton code of a position (x bits in even places, y bits in odd ones).
pub fn morton_code(position: LatLng) -> u64 {
    let (x, y) = mercator(position);
    let scale = f64::from(1u32 << MORTON_LEVELS);
    let max = (1u32 << MORTON_LEVELS) - 1;
    let cell_x = ((x * scale) as u32).min(max);
    let cell_y = ((y * scale) as u32).min(max);
    interleave(cell_x, cell_y)
}

fn interleave(x: u32, y: u32) -> u64 {
    spread_bits(x) | (spread_bits(y) << 1)
}

/// A map cell: the square of Web Mercator tile (`x`, `y`) at zoom `level`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cell {
    pub level: u32,
    pub x: u32,
    pub y: u32,
}

/// A rectangle in degrees.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GeoRect {
    pub west: f64,
    pub south: f64,
    pub east: f64,
    pub north: f64,
}

impl Cell {
    fn code_range(self) -> (u64, u64) {
        let shift = 2 * (MORTON_LEVELS - self.level);
        let prefix = interleave(self.x, self.y);
        (prefix << shift, (prefix + 1) << shift)
    }

    fn children(self) -> [Cell; 4] {
        let (level, x, y) = (self.level + 1, self.x * 2, self.y * 2);
        // Morton order of the children: (0,0), (1,0), (0,1), (1,1).
        [
            Cell { level, x, y },
            Cell { level, x: x + 1, y },
            Cell { level, x, y: y + 1 },
            Cell {
                level,
                x: x + 1,
                y: y + 1,
            },
        ]
    }

    /// Returns the cell's extent in unit-square Mercator coordinates.
    fn unit_rect(self) -> (f64, f64, f64, f64) {
        let size = 1.0 / f64::from(1u32 << self.level);
        let x0 = f64::from(self.x) * size;
        let y0 = f64::from(self.y) * size;
        (x0, y0, x0 + size, y0 + size)
    }

    pub fn geo_rect(self) -> GeoRect {
        let (x0, y0, x1, y1) = self.unit_rect();
        GeoRect {
            west: x0 * 360.0 - 180.0,
            north: inverse_mercator_lat(y0),
            east: x1 * 360.0 - 180.0,
            south: inverse_mercator_lat(y1),
        }
    }
}

fn haversine_term(angle_radians: f64) -> f64 {
    (angle_radians / 2.0).sin().powi(2)
}

/// Longitude difference folded into [0, 180] degrees.
fn longitude_gap(a: f64, b: f64) -> f64 {
    let gap = (a - b).abs() % 360.0;
    if gap > 180.0 { 360.0 - gap } else { gap }
}

/// Where a cell lies relative to a circle or a box.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Coverage {
    Inside,
    Outside,
    Partial,
}

/// A search circle, with what every cell test needs computed once.
struct Circle {
    origin: LatLng,
    cos_origin: f64,
    radius_haversine: f64,
}

impl Circle {
    fn new(origin: LatLng, radius_miles: f64) -> Self {
        Self {
            origin,
            cos_origin: origin.lat.to_radians().cos(),
            radius_haversine: haversine_term(radius_miles / domain::geo::EARTH_RADIUS_MILES),
        }
    }

    fn coverage(&self, cell: Cell) -> Coverage {
        let (west, _, east, _) = cell.unit_rect();
        let (north, cos_north) = row_edge(cell.level, cell.y);
        let (south, cos_south) = row_edge(cell.level, cell.y + 1);
        let rect = GeoRect {
            west: west * 360.0 - 180.0,
            north,
            east: east * 360.0 - 180.0,
            south,
        };
        coverage(rect, (cos_south, cos_north), self)
    }
}

/// Row edges at this level are tabulated with their latitude's cosine. Every coarser level's
/// edges are among them (exactly: the scaling is by powers of two), so a radius walk looks its
/// cells' bounds up instead of computing sinh, atan and cos for each.
const EDGE_TABLE_LEVEL: u32 = 16;

static ROW_EDGES: std::sync::LazyLock<Vec<(f64, f64)>> = std::sync::LazyLock::new(|| {
    let rows = 1u32 << EDGE_TABLE_LEVEL;
    (0..=rows)
        .map(|y| {
            let lat = inverse_mercator_lat(f64::from(y) / f64::from(rows));
            (lat, lat.to_radians().cos())
        })
        .collect()
});

/// The latitude of the top edge of row `y` at `level` (`y` may be one past the last row), and
/// its cosine.
fn row_edge(level: u32, y: u32) -> (f64, f64) {
    if level <= EDGE_TABLE_LEVEL {
        ROW_EDGES[(y << (EDGE_TABLE_LEVEL - level)) as usize]
    } else {
        let lat = inverse_mercator_lat(f64::from(y) / f64::from(1u32 << level));
        (lat, lat.to_radians().cos())
    }
}

/// Classifies a rectangle (with the cosines of its south and north edges) against a circle
/// with rigorous bounds from the haversine formula:
/// hav(d) = hav(dlat) + cos(lat1) cos(lat2) hav(dlng), each term bounded over the rectangle.
fn coverage(rect: GeoRect, (cos_south, cos_north): (f64, f64), circle: &Circle) -> Coverage {
    let (origin, radius_haversine) = (circle.origin, circle.radius_haversine);
    if rect.east - rect.west > 90.0 {
        return Coverage::Partial;
    }
    let lat_gap_min = if origin.lat < rect.south {
        rect.south - origin.lat
    } else if origin.lat > rect.north {
        origin.lat - rect.north
    } else {
        0.0
    };
    let lat_gap_max = (origin.lat - rect.south).abs().max((origin.lat - rect.north).abs());
    let inside_lng = longitude_gap(origin.lng, (rect.west + rect.east) / 2.0) <= (rect.east - rect.west) / 2.0;
    let lng_gaps = (
        longitude_gap(origin.lng, rect.west),
        longitude_gap(origin.lng, rect.east),
    );
    let lng_gap_min = if inside_lng { 0.0 } else { lng_gaps.0.min(lng_gaps.1) };
    let lng_gap_max = lng_gaps.0.max(lng_gaps.1);
    let cos_min = cos_south.min(cos_north);
    let cos_max = if rect.south <= 0.0 && rect.north >= 0.0 {
        1.0
    } else {
        cos_south.max(cos_north)
    };
    let cos_origin = circle.cos_origin;
    // A small relative slack keeps rounding from misclassifying a cell that touches the circle.
    let slack = 1e-12;
    let lower =
        haversine_term(lat_gap_min.to_radians()) + cos_origin * cos_min * haversine_term(lng_gap_min.to_radians());
    if lower > radius_haversine * (1.0 + slack) + slack {
        return Coverage::Outside;
    }
    let upper =
        haversine_term(lat_gap_max.to_radians()) + cos_origin * cos_max * haversine_term(lng_gap_max.to_radians());
    if upper < radius_haversine * (1.0 - slack) - slack {
        Coverage::Inside
    } else {
        Coverage::Partial
    }
}

/// One cluster of an area-pins answer.
#[derive(Debug, Clone, PartialEq)]
pub struct CellCount {
    pub cell: Cell,
    pub count: usize,
    pub new_patients: usize,
    /// Mean position of the cell's counted locations.
    pub centroid: LatLng,
}

/// A box in both coordinate systems: degrees for per-location tests, the Mercator unit square
/// for cells. Longitudes do not wrap: a box over the antimeridian is two of these.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MapBox {
    pub west: f64,
    pub south: f64,
    pub east: f64,
    pub north: f64,
}

impl MapBox {
    fn unit_rect(self) -> (f64, f64, f64, f64) {
        let (x0, y0) = mercator(LatLng {
            lat: self.north,
            lng: self.west,
        });
        let (x1, y1) = mercator(LatLng {
            lat: self.south,
            lng: self.east,
        });
        (x0, y0, x1, y1)
    }

    pub fn contains(self, position: LatLng) -> bool {
        position.lat >= self.south
            && position.lat <= self.north
            && position.lng >= self.west
            && position.lng <= self.east
    }

    /// Where a cell lies relative to the box. Cells on the Mercator square's edge hold clamped
    /// positions and are always checked one location at a time.
    fn coverage(self, cell: Cell) -> Coverage {
        let (bx0, by0, bx1, by1) = self.unit_rect();
        let (cx0, cy0, cx1, cy1) = cell.unit_rect();
        if cx1 < bx0 || cx0 > bx1 || cy1 < by0 || cy0 > by1 {
            return Coverage::Outside;
        }
        let on_square_edge = cy0 <= 0.0 || cy1 >= 1.0 || cx0 <= 0.0 || cx1 >= 1.0;
        // Strict inequalities: a location on the cell's edge may belong to the next cell.
        if !on_square_edge && cx0 > bx0 && cx1 < bx1 && cy0 > by0 && cy1 < by1 {
            Coverage::Inside
        } else {
            Coverage::Partial
        }
    }
}

/// What a quadtree walk hands its visitor.
enum Visit {
    /// A cell entirely inside: the ordinal range of its locations.
    Inside(usize, usize),
    /// A location of a small cell on the edge, to be checked on its own.
    Edge(usize),
}

/// Counts gathered over part of the map.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct AreaStats {
    pub count: usize,
    pub new_patients: usize,
    pub lat_sum: f64,
    pub lng_sum: f64,
}

/// The Morton-ordered view of the physical locations.
pub struct MortonIndex {
    codes: Vec<u64>,
    positions: Vec<LatLng>,
    units: Vec<[f64; 3]>,
    lat_prefix: Vec<f64>,
    lng_prefix: Vec<f64>,
}

/// The squared chord that bounds a radius, with a hair of slack so rounding never drops a
/// location that the great-circle distance puts on the edge.
pub fn chord_limit(radius_miles: f64) -> f64 {
    let chord = domain::geo::chord_for_miles(radius_miles);
    chord * chord * (1.0 + 1e-12)
}

#[inline]
pub fn chord_2(a: &[f64; 3], b: &[f64; 3]) -> f64 {
    (a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)
}

impl MortonIndex {
    /// Builds the index from positions already sorted by Morton code.
    pub fn new(positions: Vec<LatLng>) -> Self {
        let codes: Vec<u64> = positions.iter().map(|p| morton_code(*p)).collect();
        debug_assert!(codes.windows(2).all(|pair| pair[0] <= pair[1]));
        let units = positions.iter().map(|p| p.unit_vector()).collect();
        let mut lat_prefix = Vec::with_capacity(positions.len() + 1);
        let mut lng_prefix = Vec::with_capacity(positions.len() + 1);
        let (mut lat_sum, mut lng_sum) = (0.0, 0.0);
        lat_prefix.push(0.0);
        lng_prefix.push(0.0);
        for position in &positions {
            lat_sum += position.lat;
            lng_sum += position.lng;
            lat_prefix.push(lat_sum);
            lng_prefix.push(lng_sum);
        }
        Self {
            codes,
            positions,
            units,
            lat_prefix,
            lng_prefix,
        }
    }

    pub fn len(&self) -> usize {
        self.codes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.codes.is_empty()
    }

    pub fn position(&self, ordinal: usize) -> LatLng {
        self.positions[ordinal]
    }

    pub fn unit(&self, ordinal: usize) -> &[f64; 3] {
        &self.units[ordinal]
    }

    fn range_within(&self, cell: Cell, start: usize, end: usize) -> (usize, usize) {
        let (low, high) = cell.code_range();
        let slice = &self.codes[start..end];
        let first = slice.partition_point(|code| *code < low);
        let last = first + slice[first..].partition_point(|code| *code < high);
        (start + first, start + last)
    }

    /// Walks the quadtree: `classify` says where a cell lies; `visit` gets the ordinal ranges
    /// of cells inside and, one by one, the ordinals of small cells on the edge.
    fn walk(&self, classify: impl Fn(Cell) -> Coverage, mut visit: impl FnMut(Visit)) {
        let mut stack = vec![(Cell { level: 0, x: 0, y: 0 }, 0, self.codes.len())];
        while let Some((cell, start, end)) = stack.pop() {
            if start == end {
                continue;
            }
            match classify(cell) {
                Coverage::Outside => {}
                Coverage::Inside => visit(Visit::Inside(start, end)),
                Coverage::Partial if end - start <= SCAN_BELOW || cell.level == MORTON_LEVELS => {
                    (start..end).for_each(|ordinal| visit(Visit::Edge(ordinal)));
                }
                Coverage::Partial => {
                    let mut child_start = start;
                    for child in cell.children() {
                        let (first, last) = self.range_within(child, child_start, end);
                        stack.push((child, first, last));
                        child_start = last;
                    }
                }
            }
        }
    }

    /// Counts the members of `filter` within `radius_miles` of `origin`, and gathers them too
    /// while there are at most `cap` (one walk serves both).
    pub fn count_and_gather_within(
        &self,
        origin: LatLng,
        radius_miles: f64,
        filter: &Bitset,
        cap: usize,
    ) -> (usize, Option<Vec<usize>>) {
        let circle = Circle::new(origin, radius_miles);
        let (origin_unit, limit) = (origin.unit_vector(), chord_limit(radius_miles));
        let mut total = 0;
        let mut gathered = Some(Vec::new());
        self.walk(
            |cell| circle.coverage(cell),
            |visit| match visit {
                Visit::Inside(start, end) => {
                    let count = filter.count_range(start, end);
                    total += count;
                    match &mut gathered {
                        Some(found) if found.len() + count <= cap => found.extend(filter.iter_range(start, end)),
                        _ => gathered = None,
                    }
                }
                Visit::Edge(ordinal) => {
                    if filter.contains(ordinal) && chord_2(&self.units[ordinal], &origin_unit) <= limit {
                        total += 1;
                        match &mut gathered {
                            Some(found) if found.len() < cap => found.push(ordinal),
                            _ => gathered = None,
                        }
                    }
                }
            },
        );
        (total, gathered)
    }

    /// Counts the members of `filter` in a box.
    pub fn count_in_box(&self, map_box: MapBox, filter: &Bitset) -> usize {
        let mut total = 0;
        self.walk(
            |cell| map_box.coverage(cell),
            |visit| match visit {
                Visit::Inside(start, end) => total += filter.count_range(start, end),
                Visit::Edge(ordinal) => {
                    total += usize::from(filter.contains(ordinal) && map_box.contains(self.positions[ordinal]));
                }
            },
        );
        total
    }

    fn stats_of_range(&self, start: usize, end: usize, filter: &Bitset, new_patients: &Bitset) -> AreaStats {
        let count = filter.count_range(start, end);
        let new_patients = filter.count_range_and(new_patients, start, end);
        // A cluster marker needs a representative position, not an exact mean: large ranges
        // use the mean of all their locations (prefix sums), small ones the filtered mean.
        let (lat_sum, lng_sum) = if count == end - start || end - start > 64 {
            let scale = count as f64 / (end - start) as f64;
            (
                (self.lat_prefix[end] - self.lat_prefix[start]) * scale,
                (self.lng_prefix[end] - self.lng_prefix[start]) * scale,
            )
        } else {
            filter.iter_range(start, end).fold((0.0, 0.0), |(lat, lng), ordinal| {
                (lat + self.positions[ordinal].lat, lng + self.positions[ordinal].lng)
            })
        };
        AreaStats {
            count,
            new_patients,
            lat_sum,
            lng_sum,
        }
    }

    /// Counts the members of `filter` in each non-empty cell of `level` that meets the box.
    pub fn cell_counts(
        &self,
        level: u32,
        map_box: MapBox,
        filter: &Bitset,
        new_patients: &Bitset,
        out: &mut Vec<CellCount>,
    ) {
        let (x0, y0, x1, y1) = map_box.unit_rect();
        let mut stack = vec![(Cell { level: 0, x: 0, y: 0 }, 0, self.codes.len())];
        while let Some((cell, start, end)) = stack.pop() {
            if start == end {
                continue;
            }
            let (cx0, cy0, cx1, cy1) = cell.unit_rect();
            if cx1 < x0 || cx0 > x1 || cy1 < y0 || cy0 > y1 {
                continue;
            }
            if cell.level < level {
                let mut child_start = start;
                for child in cell.children() {
                    let (first, last) = self.range_within(child, child_start, end);
                    stack.push((child, first, last));
                    child_start = last;
                }
                continue;
            }
            let stats = if map_box.coverage(cell) == Coverage::Inside {
                self.stats_of_range(start, end, filter, new_patients)
            } else {
                self.stats_in_box(cell, start, end, map_box, filter, new_patients)
            };
            if stats.count == 0 {
                continue;
            }
            let count = stats.count as f64;
            let centroid = LatLng {
                lat: stats.lat_sum / count,
                lng: stats.lng_sum / count,
            };
            out.push(CellCount {
                cell,
                count: stats.count,
                new_patients: stats.new_patients,
                centroid,
            });
        }
    }

    /// The members of `filter` in the part of a cell that the box covers.
    fn stats_in_box(
        &self,
        cell: Cell,
        start: usize,
        end: usize,
        map_box: MapBox,
        filter: &Bitset,
        new_patients: &Bitset,
    ) -> AreaStats {
        let mut stats = AreaStats::default();
        let mut stack = vec![(cell, start, end)];
        while let Some((cell, start, end)) = stack.pop() {
            if start == end {
                continue;
            }
            match map_box.coverage(cell) {
                Coverage::Outside => {}
                Coverage::Inside => {
                    let inner = self.stats_of_range(start, end, filter, new_patients);
                    stats.count += inner.count;
                    stats.new_patients += inner.new_patients;
                    stats.lat_sum += inner.lat_sum;
                    stats.lng_sum += inner.lng_sum;
                }
                Coverage::Partial if end - start <= SCAN_BELOW || cell.level == MORTON_LEVELS => {
                    for ordinal in start..end {
                        let position = self.positions[ordinal];
                        if filter.contains(ordinal) && map_box.contains(position) {
                            stats.count += 1;
                            stats.new_patients += usize::from(new_patients.contains(ordinal));
                            stats.lat_sum += position.lat;
                            stats.lng_sum += position.lng;
                        }
                    }
                }
                Coverage::Partial => {
                    let mut child_start = start;
                    for child in cell.children() {
                        let (first, last) = self.range_within(child, child_start, end);
                        stack.push((child, first, last));
                        child_start = last;
                    }
                }
            }
        }
        stats
    }
}

/// A point in the 3-D nearest-neighbour tree: a unit vector and its ordinal.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SpherePoint {
    pub unit: [f64; 3],
    pub ordinal: u32,
}

impl RTreeObject for SpherePoint {
    type Envelope = AABB<[f64; 3]>;
    fn envelope(&self) -> Self::Envelope {
        AABB::from_point(self.unit)
    }
}

impl PointDistance for SpherePoint {
    fn distance_2(&self, point: &[f64; 3]) -> f64 {
        (self.unit[0] - point[0]).powi(2) + (self.unit[1] - point[1]).powi(2) + (self.unit[2] - point[2]).powi(2)
    }
}

/// A point in the 2-D box tree: (lng, lat) and its ordinal.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MapPoint {
    pub lng_lat: [f64; 2],
    pub ordinal: u32,
}

impl RTreeObject for MapPoint {
    type Envelope = AABB<[f64; 2]>;
    fn envelope(&self) -> Self::Envelope {
        AABB::from_point(self.lng_lat)
    }
}

impl PointDistance for MapPoint {
    fn distance_2(&self, point: &[f64; 2]) -> f64 {
        (self.lng_lat[0] - point[0]).powi(2) + (self.lng_lat[1] - point[1]).powi(2)
    }
}

/// The R-trees of the physical locations.
pub struct SpatialTrees {
    pub sphere: RTree<SpherePoint>,
    pub map: RTree<MapPoint>,
}

impl SpatialTrees {
    pub fn build(positions: &[LatLng]) -> Self {
        let sphere = RTree::bulk_load(
            positions
                .iter()
                .enumerate()
                .map(|(ordinal, p)| SpherePoint {
                    unit: p.unit_vector(),
                    ordinal: ordinal as u32,
                })
                .collect(),
        );
        let map = RTree::bulk_load(
            positions
                .iter()
                .enumerate()
                .map(|(ordinal, p)| MapPoint {
                    lng_lat: [p.lng, p.lat],
                    ordinal: ordinal as u32,
                })
                .collect(),
        );
        Self { sphere, map }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use domain::haversine_miles;

    #[test]
    fn morton_codes_keep_cells_contiguous() {
        let denver = LatLng::new(39.74, -104.99).unwrap();
        let boulder = LatLng::new(40.01, -105.27).unwrap();
        let code = morton_code(denver);
        let cell = Cell { level: 6, x: 13, y: 24 };
        let (low, high) = cell.code_range();
        assert!(low <= code && code < high, "Denver is in tile 6/13/24");
        assert!(morton_code(boulder) >= low && morton_code(boulder) < high);
        let rect = cell.geo_rect();
        assert!(rect.west < -104.99 && rect.east > -104.99 && rect.south < 39.74 && rect.north > 39.74);
    }

    #[test]
    fn coverage_bounds_are_conservative() {
        let origin = LatLng::new(39.74, -104.99).unwrap();
        let radius = 30.0;
        let circle = Circle::new(origin, radius);
        for level in [8, 10, 12, 18] {
            let scale = f64::from(1u32 << level);
            let (x, y) = mercator(origin);
            let (cx, cy) = ((x * scale) as i64, (y * scale) as i64);
            for dx in -6..=6 {
                for dy in -6..=6 {
                    let cell = Cell {
                        level,
                        x: (cx + dx) as u32,
                        y: (cy + dy) as u32,
                    };
                    let rect = cell.geo_rect();
                    let samples: Vec<f64> = (0..=8)
                        .flat_map(|i| (0..=8).map(move |j| (i, j)))
                        .map(|(i, j)| {
                            let lat = rect.south + (rect.north - rect.south) * f64::from(i) / 8.0;
                            let lng = rect.west + (rect.east - rect.west) * f64::from(j) / 8.0;
                            haversine_miles(origin, LatLng { lat, lng })
                        })
                        .collect();
                    let cosines = (rect.south.to_radians().cos(), rect.north.to_radians().cos());
                    let computed = coverage(rect, cosines, &circle);
                    assert_eq!(
                        circle.coverage(cell),
                        computed,
                        "the tabulated edges are the computed ones"
                    );
                    match computed {
                        Coverage::Inside => assert!(samples.iter().all(|d| *d <= radius)),
                        Coverage::Outside => assert!(samples.iter().all(|d| *d > radius)),
                        Coverage::Partial => {}
                    }
                }
            }
        }
    }
}
