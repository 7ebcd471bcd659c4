//! Cache slots by ordinal whose memory is taken a chunk at a time, as they are first filled.

use std::sync::OnceLock;

/// A slot per ordinal, set once, for caches that keep a few thousand of a million ordinals. The
/// slots are allocated `CHUNK` at a time when the first of a chunk is filled: the card cache's
/// slots made up front (32 bytes each for a million locations and 900,000 clinician links) were
/// 61 MB resident in every server at a million, made again by every patch, holding nothing.
/// Ordinals are in Morton order, so one place's cards and resources share a few chunks.
pub struct ChunkedSlots<T, const CHUNK: usize> {
    chunks: Box<[OnceLock<Chunk<T>>]>,
}

/// One chunk's slots.
type Chunk<T> = Box<[OnceLock<T>]>;

impl<T, const CHUNK: usize> ChunkedSlots<T, CHUNK> {
    /// Bytes of one chunk, for a cache that counts them against its budget.
    pub const CHUNK_BYTES: usize = CHUNK * std::mem::size_of::<OnceLock<T>>();

    pub fn new(len: usize) -> Self {
        Self {
            chunks: (0..len.div_ceil(CHUNK)).map(|_| OnceLock::new()).collect(),
        }
    }

    /// Whether `ordinal` has a slot (is below the length made with).
    pub fn covers(&self, ordinal: usize) -> bool {
        ordinal / CHUNK < self.chunks.len()
    }

    /// Whether the chunk holding `ordinal`'s slot is made (filling it costs no chunk).
    pub fn has_chunk(&self, ordinal: usize) -> bool {
        self.chunks[ordinal / CHUNK].get().is_some()
    }

    pub fn get(&self, ordinal: usize) -> Option<&T> {
        self.chunks[ordinal / CHUNK].get()?[ordinal % CHUNK].get()
    }

    /// Bytes that filling `ordinal`'s slot adds in slots: a chunk's, when its chunk is not made.
    pub fn chunk_cost(&self, ordinal: usize) -> usize {
        if self.has_chunk(ordinal) { 0 } else { Self::CHUNK_BYTES }
    }

    /// Fills `ordinal`'s slot with `value` unless another call filled it first. Answers what the
    /// slot holds, whether that is `value`, and whether this call made the slot's chunk: a cache
    /// counts the bytes it keeps from the last two.
    pub fn fill(&self, ordinal: usize, value: T) -> (&T, bool, bool) {
        let mut chunk_made = false;
        let chunk = self.chunks[ordinal / CHUNK].get_or_init(|| {
            chunk_made = true;
            (0..CHUNK).map(|_| OnceLock::new()).collect()
        });
        let slot = &chunk[ordinal % CHUNK];
        let kept = slot.set(value).is_ok();
        (slot.get().expect("a slot is filled once set"), kept, chunk_made)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chunk_is_made_by_the_first_of_its_slots_only() {
        let slots: ChunkedSlots<u32, 4> = ChunkedSlots::new(10);
        assert!(slots.covers(9) && !slots.covers(12));
        assert!(!slots.has_chunk(5) && slots.get(5).is_none());
        assert_eq!(slots.chunk_cost(5), ChunkedSlots::<u32, 4>::CHUNK_BYTES);
        assert_eq!(slots.fill(5, 55), (&55, true, true));
        assert_eq!(slots.fill(5, 56), (&55, false, false));
        assert_eq!(slots.chunk_cost(6), 0);
        assert_eq!(slots.fill(6, 66), (&66, true, false));
        assert!(slots.has_chunk(4) && !slots.has_chunk(3) && !slots.has_chunk(8));
        assert_eq!((slots.get(5), slots.get(4)), (Some(&55), None));
        assert_eq!(
            ChunkedSlots::<u32, 4>::CHUNK_BYTES,
            4 * std::mem::size_of::<OnceLock<u32>>()
        );
    }
}
