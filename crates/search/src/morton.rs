//! The Morton-ordered index of the physical locations. Every map cell at every zoom is a
//! contiguous range of ordinals, so counting a filter's matches in a cell is a popcount, and a
//! radius or box count measures only the locations of small cells on its edge. Imports
//! `spatial` (cells, coverage, chords) and `bitset`.

use domain::LatLng;

use crate::bitset::Bitset;
use crate::spatial::{Cell, Circle, Coverage, MORTON_LEVELS, MapBox, chord_2, chord_limit, morton_code};

/// Below this many locations a partially covered cell is checked one location at a time.
const SCAN_BELOW: usize = 128;

/// One cluster of an area-pins answer.
#[derive(Debug, Clone, PartialEq)]
pub struct CellCount {
    pub cell: Cell,
    pub count: usize,
    pub new_patients: usize,
    /// Mean position of the cell's counted locations.
    pub centroid: LatLng,
}

/// What a quadtree walk hands its visitor.
enum Visit {
    /// A cell entirely inside: the ordinal range of its locations.
    Inside(usize, usize),
    /// A small cell on the edge: the ordinal range of its locations, each to be checked on its own.
    Edge(usize, usize),
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
    /// The locations' unit vectors, an axis to a vector, so that an edge cell's chords are
    /// computed two locations to an instruction.
    units: [Vec<f64>; 3],
    lat_prefix: Vec<f64>,
    lng_prefix: Vec<f64>,
    /// The quadtree's crowded cells, root first: see [`QuadNode`].
    nodes: Vec<QuadNode>,
}

/// A cell of the quadtree with more than [`SCAN_BELOW`] locations: its ordinal range and where
/// its four children's nodes start. A walk reads a child's range here instead of binary
/// searching the 8 MB of codes for it, which at a million locations was a cache miss per step
/// and a fifth of a search's CPU. Cells with fewer locations have no node (their codes are a
/// few cache lines, searched as before).
#[derive(Debug, Clone, Copy)]
struct QuadNode {
    start: u32,
    end: u32,
    /// Index of the first of four consecutive child nodes; [`NO_CHILDREN`] for a small cell.
    children: u32,
}

const NO_CHILDREN: u32 = u32::MAX;
/// The root cell's node.
const ROOT: u32 = 0;

/// A cell being walked: its ordinal range and its node, when it is crowded enough to have one.
#[derive(Debug, Clone, Copy)]
struct Walked {
    cell: Cell,
    start: usize,
    end: usize,
    node: u32,
}

impl MortonIndex {
    /// Builds the index from positions already sorted by Morton code.
    pub fn new(positions: Vec<LatLng>) -> Self {
        let codes: Vec<u64> = positions.iter().map(|p| morton_code(*p)).collect();
        debug_assert!(codes.windows(2).all(|pair| pair[0] <= pair[1]));
        let vectors: Vec<[f64; 3]> = positions.iter().map(|p| p.unit_vector()).collect();
        let units = [0, 1, 2].map(|axis| vectors.iter().map(|vector| vector[axis]).collect());
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
        let nodes = quad_nodes(&codes);
        Self {
            codes,
            positions,
            units,
            lat_prefix,
            lng_prefix,
            nodes,
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

    pub fn unit(&self, ordinal: usize) -> [f64; 3] {
        [self.units[0][ordinal], self.units[1][ordinal], self.units[2][ordinal]]
    }

    fn root(&self) -> Walked {
        Walked {
            cell: Cell { level: 0, x: 0, y: 0 },
            start: 0,
            end: self.codes.len(),
            node: if self.nodes.is_empty() { NO_CHILDREN } else { ROOT },
        }
    }

    /// Pushes the four children of a walked cell, each with its own range of ordinals: read
    /// from the node table for a crowded cell, else found in its codes.
    fn push_children(&self, stack: &mut Vec<Walked>, walked: Walked) {
        let children = walked.cell.children();
        match self.nodes.get(walked.node as usize).map(|node| node.children) {
            Some(first) if first != NO_CHILDREN => {
                for (offset, cell) in children.into_iter().enumerate() {
                    let node = first + offset as u32;
                    let child = self.nodes[node as usize];
                    stack.push(Walked {
                        cell,
                        start: child.start as usize,
                        end: child.end as usize,
                        node,
                    });
                }
            }
            _ => {
                let mut child_start = walked.start;
                for cell in children {
                    let (start, end) = range_within(&self.codes, cell, child_start, walked.end);
                    stack.push(Walked {
                        cell,
                        start,
                        end,
                        node: NO_CHILDREN,
                    });
                    child_start = end;
                }
            }
        }
    }

    /// Walks the whole quadtree (see [`Self::walk_from`]).
    fn walk(&self, classify: impl Fn(Cell) -> Coverage, visit: impl FnMut(Visit)) {
        self.walk_from(self.root(), classify, visit);
    }

    /// Walks the quadtree below `root`: `classify` says where a cell lies; `visit` gets the
    /// ordinal ranges of cells inside and, one by one, the ordinals of small cells on the edge.
    fn walk_from(&self, root: Walked, classify: impl Fn(Cell) -> Coverage, mut visit: impl FnMut(Visit)) {
        let mut stack = Vec::with_capacity(64);
        stack.push(root);
        while let Some(walked) = stack.pop() {
            let Walked { cell, start, end, .. } = walked;
            if start == end {
                continue;
            }
            match classify(cell) {
                Coverage::Outside => {}
                Coverage::Inside => visit(Visit::Inside(start, end)),
                Coverage::Partial if end - start <= SCAN_BELOW || cell.level == MORTON_LEVELS => {
                    visit(Visit::Edge(start, end));
                }
                Coverage::Partial => self.push_children(&mut stack, walked),
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
        self.count_and_gather(
            |cell| circle.coverage(cell),
            filter,
            cap,
            |start, end| self.count_near(start, end, &origin_unit, limit, filter),
            |ordinal| filter.contains(ordinal) && chord_2(&self.unit(ordinal), &origin_unit) <= limit,
        )
    }

    /// One walk that counts the members of `filter` in an area and gathers them while there are
    /// at most `cap`. `count_edge` counts a small edge cell's matches; `matches` says whether one
    /// of its locations is in (the two must agree). Cells are kept as ranges and read out only
    /// if the area holds few enough: in a city it never does, and reading them out as the walk
    /// went cost more than the count.
    fn count_and_gather(
        &self,
        classify: impl Fn(Cell) -> Coverage,
        filter: &Bitset,
        cap: usize,
        count_edge: impl Fn(usize, usize) -> usize,
        matches: impl Fn(usize) -> bool,
    ) -> (usize, Option<Vec<usize>>) {
        let mut total = 0;
        let mut cells: Vec<Visit> = Vec::new();
        self.walk(classify, |visit| {
            total += match visit {
                Visit::Inside(start, end) => filter.count_range(start, end),
                Visit::Edge(start, end) => count_edge(start, end),
            };
            if total <= cap {
                cells.push(visit);
            }
        });
        let gathered = (total <= cap).then(|| {
            let mut found = Vec::with_capacity(total);
            for visit in cells {
                match visit {
                    Visit::Inside(start, end) => found.extend(filter.iter_range(start, end)),
                    Visit::Edge(start, end) => found.extend((start..end).filter(|ordinal| matches(*ordinal))),
                }
            }
            found
        });
        (total, gathered)
    }

    /// Counts the members of `filter` in `start..end` within chord² `limit` of `origin_unit`.
    /// Each 64 locations' tests become one word of bits, ANDed with the filter's word and
    /// popcounted: no branch per location, so the tests vectorise (an edge cell's locations are
    /// about half inside, which a branch mispredicted as often as not).
    fn count_near(&self, start: usize, end: usize, origin_unit: &[f64; 3], limit: f64, filter: &Bitset) -> usize {
        let mut total = 0;
        let mut word_start = start;
        while word_start < end {
            let word = word_start / 64;
            let word_end = end.min((word + 1) * 64);
            let filter_word = filter.word(word);
            if filter_word != 0 {
                let [xs, ys, zs] = &self.units;
                let (xs, ys, zs) = (
                    &xs[word_start..word_end],
                    &ys[word_start..word_end],
                    &zs[word_start..word_end],
                );
                let near = (0..xs.len()).fold(0u64, |bits, offset| {
                    // Summed as chord_2 sums, so the two agree to the bit.
                    let chord_2 = (xs[offset] - origin_unit[0]).powi(2)
                        + (ys[offset] - origin_unit[1]).powi(2)
                        + (zs[offset] - origin_unit[2]).powi(2);
                    bits | (u64::from(chord_2 <= limit) << offset)
                }) << (word_start % 64);
                total += (near & filter_word).count_ones() as usize;
            }
            word_start = word_end;
        }
        total
    }

    /// Counts the members of `filter` in a box, and gathers them too (in Morton order) while
    /// there are at most `cap`: pins need both, and one walk of the cells serves them.
    pub fn count_and_gather_in_box(&self, map_box: MapBox, filter: &Bitset, cap: usize) -> (usize, Option<Vec<usize>>) {
        let in_box = |ordinal: usize| filter.contains(ordinal) && map_box.contains(self.positions[ordinal]);
        self.count_and_gather(
            |cell| map_box.coverage(cell),
            filter,
            cap,
            |start, end| (start..end).filter(|ordinal| in_box(*ordinal)).count(),
            in_box,
        )
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
        let mut stack = vec![self.root()];
        while let Some(walked) = stack.pop() {
            let Walked { cell, start, end, .. } = walked;
            if start == end {
                continue;
            }
            let (cx0, cy0, cx1, cy1) = cell.unit_rect();
            if cx1 < x0 || cx0 > x1 || cy1 < y0 || cy0 > y1 {
                continue;
            }
            if cell.level < level {
                self.push_children(&mut stack, walked);
                continue;
            }
            let stats = if map_box.coverage(cell) == Coverage::Inside {
                self.stats_of_range(start, end, filter, new_patients)
            } else {
                self.stats_in_box(walked, map_box, filter, new_patients)
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
    fn stats_in_box(&self, cell: Walked, map_box: MapBox, filter: &Bitset, new_patients: &Bitset) -> AreaStats {
        let mut stats = AreaStats::default();
        self.walk_from(
            cell,
            |cell| map_box.coverage(cell),
            |visit| match visit {
                Visit::Inside(start, end) => {
                    let inner = self.stats_of_range(start, end, filter, new_patients);
                    stats.count += inner.count;
                    stats.new_patients += inner.new_patients;
                    stats.lat_sum += inner.lat_sum;
                    stats.lng_sum += inner.lng_sum;
                }
                Visit::Edge(start, end) => {
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
            },
        );
        stats
    }
}

/// The ordinals `start..end` (within a parent's range) whose codes fall in `cell`.
fn range_within(codes: &[u64], cell: Cell, start: usize, end: usize) -> (usize, usize) {
    let (low, high) = cell.code_range();
    let slice = &codes[start..end];
    let first = slice.partition_point(|code| *code < low);
    let last = first + slice[first..].partition_point(|code| *code < high);
    (start + first, start + last)
}

/// The node table of the quadtree over sorted `codes`: every cell with more than
/// [`SCAN_BELOW`] locations above the last level gets its four children's nodes.
fn quad_nodes(codes: &[u64]) -> Vec<QuadNode> {
    if codes.is_empty() {
        return Vec::new();
    }
    let mut nodes = vec![QuadNode {
        start: 0,
        end: codes.len() as u32,
        children: NO_CHILDREN,
    }];
    let mut cells = vec![Cell { level: 0, x: 0, y: 0 }];
    let mut next = 0;
    while next < nodes.len() {
        let QuadNode { start, end, .. } = nodes[next];
        let cell = cells[next];
        if (end - start) as usize > SCAN_BELOW && cell.level < MORTON_LEVELS {
            nodes[next].children = nodes.len() as u32;
            let mut child_start = start as usize;
            for child in cell.children() {
                let (first, last) = range_within(codes, child, child_start, end as usize);
                nodes.push(QuadNode {
                    start: first as u32,
                    end: last as u32,
                    children: NO_CHILDREN,
                });
                cells.push(child);
                child_start = last;
            }
        }
        next += 1;
    }
    nodes
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Positions on either side of the circle of `radius_miles` around `origin`, as close to it
    /// as `f64` can place them (found by bisection along 64 bearings), and others scattered
    /// around: a test that rounds (to `f32`, say) cannot tell the first from the circle.
    fn around_the_circle(origin: LatLng, radius_miles: f64) -> Vec<LatLng> {
        let (origin_unit, limit) = (origin.unit_vector(), chord_limit(radius_miles));
        let at = |bearing: f64, step: f64| {
            LatLng::new(origin.lat + step * bearing.cos(), origin.lng + step * bearing.sin()).unwrap()
        };
        let beyond = |position: LatLng| chord_2(&position.unit_vector(), &origin_unit) > limit;
        let mut positions = Vec::new();
        for index in 0..64 {
            let bearing = f64::from(index) * std::f64::consts::TAU / 64.0;
            let (mut inside, mut outside) = (0.0, 4.0);
            for _ in 0..80 {
                let middle = (inside + outside) / 2.0;
                if beyond(at(bearing, middle)) {
                    outside = middle;
                } else {
                    inside = middle;
                }
            }
            positions.push(at(bearing, inside));
            positions.push(at(bearing, outside));
            for nudge in 1..4 {
                positions.push(at(bearing, inside * (1.0 - f64::from(nudge) * 1e-9)));
                positions.push(at(bearing, outside * (1.0 + f64::from(nudge) * 1e-9)));
            }
        }
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        for _ in 0..20_000 {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let (lat_step, lng_step) = (
                (seed >> 40) as f64 / (1u64 << 24) as f64,
                (seed >> 16 & 0xff_ffff) as f64 / (1u64 << 24) as f64,
            );
            positions
                .push(LatLng::new(origin.lat + 4.0 * (lat_step - 0.5), origin.lng + 4.0 * (lng_step - 0.5)).unwrap());
        }
        positions.sort_by_key(|position| morton_code(*position));
        positions
    }

    #[test]
    fn the_radius_count_is_exact_at_the_circle_itself() {
        for (origin, radius_miles) in [
            (LatLng::new(39.7392, -104.9903).unwrap(), 30.0),
            (LatLng::new(40.7128, -74.0060).unwrap(), 5.0),
            (LatLng::new(61.2181, -149.9003).unwrap(), 100.0),
        ] {
            let index = MortonIndex::new(around_the_circle(origin, radius_miles));
            let (origin_unit, limit) = (origin.unit_vector(), chord_limit(radius_miles));
            for filter in [
                Bitset::full(index.len()),
                Bitset::from_fn(index.len(), |ordinal| ordinal % 3 != 1),
            ] {
                let scanned = (0..index.len())
                    .filter(|ordinal| {
                        filter.contains(*ordinal) && chord_2(&index.unit(*ordinal), &origin_unit) <= limit
                    })
                    .count();
                let (counted, _) = index.count_and_gather_within(origin, radius_miles, &filter, 0);
                assert_eq!(counted, scanned, "{origin:?} within {radius_miles} miles");
            }
        }
    }
}
