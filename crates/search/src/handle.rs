//! The live snapshot of a process, swapped atomically: queries in flight finish on the snapshot
//! they started with.

use std::sync::Arc;

use arc_swap::ArcSwapOption;

use crate::snapshot::Snapshot;

/// A shared, atomically replaceable snapshot.
#[derive(Clone, Default)]
pub struct SnapshotHandle {
    current: Arc<ArcSwapOption<Snapshot>>,
}

impl SnapshotHandle {
    pub fn new(snapshot: Snapshot) -> Self {
        let handle = Self::default();
        handle.replace(snapshot);
        handle
    }

    /// Returns the current snapshot, if one is loaded.
    pub fn load(&self) -> Option<Arc<Snapshot>> {
        self.current.load_full()
    }

    /// Makes `snapshot` the current one.
    pub fn replace(&self, snapshot: Snapshot) {
        self.current.store(Some(Arc::new(snapshot)));
    }
}
