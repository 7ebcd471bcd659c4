//! The marketplace search engine: an immutable snapshot of the catalogue (a tantivy name index,
//! an R-tree and a Morton-ordered cell index over locations, filter bitsets) answering search,
//! pins, area pins, filter lists and name suggestions, and a handle that swaps snapshots
//! atomically. Nothing here touches PostgreSQL.

pub mod answer;
pub mod bitset;
pub mod cards;
mod combined;
pub mod directory;
pub mod error;
pub mod handle;
mod links;
pub mod lists;
pub mod morton;
mod pin_records;
pub mod pins;
pub mod plan;
pub mod rows;
pub mod search;
pub mod slots;
pub mod snapshot;
pub mod spatial;
pub mod text;

pub use answer::{
    AreaPin, AreaPinsResponse, CardKey, Coordinates, MarketItem, NameSuggestion, Pin, PinsResponse, SearchResponse,
};
pub use error::SearchError;
pub use handle::SnapshotHandle;
pub use pins::{Bounds, MAX_AREA_CELLS, MAX_PINS, MAX_ZOOM, PinFilters};
pub use plan::{Favourites, MAX_LIST_VALUES};
pub use rows::{CatalogueVersion, HoursPattern, SnapshotInput};
pub use search::{DEFAULT_PAGE_SIZE, MAX_CLINICIANS, MAX_PAGE, MAX_PAGE_SIZE, SearchRequest};
pub use snapshot::{NeedsRebuild, Snapshot};
