//! The state of the nearest ZIP centroid, answered from a grid of small cells: a search asks
//! it for every origin (which state's virtual clinics serve there), and the nearest-ZIP walk of
//! the R-tree was 4% of a search's CPU at a million locations (issue 28).
//!
//! A cell is settled the first time a position in it is asked about. It keeps a state only when
//! every position in it has its nearest ZIP in that state, which the triangle inequality proves:
//! with `c` the cell's centre, `r` the farthest a corner is from it and `d` the distance from `c`
//! to its nearest ZIP, any position `p` of the cell has a ZIP within `d + r`, so its nearest ZIP
//! lies within `d + 2r` of `c`. If all the ZIPs that close to `c` are in one state, that is the
//! answer for the whole cell. Cells near a state line keep no state, and their positions walk
//! the R-tree as before, so the answer is always the nearest ZIP's state.

use std::sync::atomic::{AtomicU8, Ordering};

use domain::LatLng;

/// Cells are this many degrees on a side: about 7 miles of latitude, small enough that most
/// cells lie in one state.
const CELL_DEGREES: f64 = 0.1;
/// A cell not asked about yet.
const UNSETTLED: u8 = 0;
/// A cell with positions whose nearest ZIPs are in different states.
const MIXED: u8 = u8::MAX;

/// What a cell says about a position in it.
pub(crate) enum CellState {
    /// The index of the state every position of the cell has its nearest ZIP in.
    State(usize),
    /// The nearest ZIP must be found (a cell near a state line, or outside the grid).
    Mixed,
    /// The cell was not asked about before; settle it with [`StateGrid::settle`].
    Unsettled(usize),
}

/// The cells over the ZIP centroids' bounding box.
pub(crate) struct StateGrid {
    south: f64,
    west: f64,
    rows: usize,
    columns: usize,
    /// [`UNSETTLED`], [`MIXED`] or 1 + a state's index.
    cells: Box<[AtomicU8]>,
}

impl StateGrid {
    /// A grid over `positions` (the ZIP centroids), a cell beyond them on every side.
    pub(crate) fn covering(positions: impl Iterator<Item = LatLng>) -> Self {
        let (mut south, mut north, mut west, mut east) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
        for position in positions {
            south = south.min(position.lat);
            north = north.max(position.lat);
            west = west.min(position.lng);
            east = east.max(position.lng);
        }
        if south > north {
            return Self {
                south: 0.0,
                west: 0.0,
                rows: 0,
                columns: 0,
                cells: Box::new([]),
            };
        }
        let south = (south - CELL_DEGREES).max(-90.0);
        let west = (west - CELL_DEGREES).max(-180.0);
        let rows = (((north + CELL_DEGREES).min(90.0) - south) / CELL_DEGREES).ceil() as usize;
        let columns = (((east + CELL_DEGREES).min(180.0) - west) / CELL_DEGREES).ceil() as usize;
        Self {
            south,
            west,
            rows,
            columns,
            cells: (0..rows * columns).map(|_| AtomicU8::new(UNSETTLED)).collect(),
        }
    }

    /// The cell holding `position`, when the grid covers it.
    fn cell_of(&self, position: LatLng) -> Option<usize> {
        let row = ((position.lat - self.south) / CELL_DEGREES).floor();
        let column = ((position.lng - self.west) / CELL_DEGREES).floor();
        if row < 0.0 || column < 0.0 || row >= self.rows as f64 || column >= self.columns as f64 {
            return None;
        }
        Some(row as usize * self.columns + column as usize)
    }

    pub(crate) fn state_at(&self, position: LatLng) -> CellState {
        let Some(cell) = self.cell_of(position) else {
            return CellState::Mixed;
        };
        match self.cells[cell].load(Ordering::Relaxed) {
            UNSETTLED => CellState::Unsettled(cell),
            MIXED => CellState::Mixed,
            state => CellState::State(usize::from(state) - 1),
        }
    }

    /// The centre of a cell and the largest chord from it to the cell's corners (with a margin
    /// for rounding): every position of the cell is within that chord of the centre.
    pub(crate) fn centre_and_reach(&self, cell: usize) -> ([f64; 3], f64) {
        let (row, column) = (cell / self.columns, cell % self.columns);
        let south = self.south + row as f64 * CELL_DEGREES;
        let west = self.west + column as f64 * CELL_DEGREES;
        let unit = |lat: f64, lng: f64| LatLng { lat, lng }.unit_vector();
        let centre = unit(south + CELL_DEGREES / 2.0, west + CELL_DEGREES / 2.0);
        let reach = [
            (0.0, 0.0),
            (0.0, 1.0),
            (1.0, 0.0),
            (1.0, 1.0),
            (0.5, 0.0),
            (0.5, 1.0),
            (0.0, 0.5),
            (1.0, 0.5),
        ]
        .into_iter()
        .map(|(up, across)| chord(&centre, &unit(south + up * CELL_DEGREES, west + across * CELL_DEGREES)))
        .fold(0.0, f64::max);
        (centre, reach * 1.01 + 1e-12)
    }

    /// Records what a cell was found to be: the state index of every position in it, or `None`
    /// for mixed. Indexes above 253 are kept as mixed (there are some 60 states and territories).
    pub(crate) fn settle(&self, cell: usize, state: Option<usize>) {
        let value = match state {
            Some(index) if index + 1 < usize::from(MIXED) => index as u8 + 1,
            _ => MIXED,
        };
        self.cells[cell].store(value, Ordering::Relaxed);
    }
}

fn chord(a: &[f64; 3], b: &[f64; 3]) -> f64 {
    (0..3).map(|axis| (a[axis] - b[axis]).powi(2)).sum::<f64>().sqrt()
}
