//! What a pin is written from, per physical location, laid out for crowded boxes: the ids and
//! the two names already written as JSON strings, in one arena in ordinal (Morton) order.
//! Imports `answer` (the JSON string writer) only.
//!
//! A zoom-14 box lists up to 2,000 pins; read from the rows, each pin was a location row of
//! several cache lines, its organisation's row and two names scattered over the heap, and those
//! misses were half of a crowded answer's CPU. A box is a few runs of consecutive ordinals, so
//! here its pins are a few runs of consecutive records and consecutive name bytes.

use domain::{Location, Organisation};

use crate::answer::{needs_json_escape, write_json_str};

/// One physical location's pin data: its organisation's id, its own id, and where its names
/// end in the arena (its names start where the previous record's end). Ids are kept in 32 bits
/// (16 bytes a record, not 24: 8 MB at a million locations, with the server near its 1.5 GB).
#[derive(Debug, Clone, Copy)]
struct PinRecord {
    id: u32,
    location_id: u32,
    name_end: u32,
    names_end: u32,
}

/// The pin records of the physical locations, by ordinal.
#[derive(Debug, Default)]
pub(crate) struct PinRecords {
    records: Vec<PinRecord>,
    /// Each location's name then its location name, each as a JSON string.
    names: Vec<u8>,
}

/// A pin's parts as [`PinRecords`] keep them.
#[derive(Debug, Clone, Copy)]
pub(crate) struct RecordedPin<'a> {
    pub(crate) id: i64,
    pub(crate) location_id: i64,
    pub(crate) name: &'a [u8],
    pub(crate) location_name: &'a [u8],
}

impl PinRecords {
    /// The records of `physical` (the physical locations in ordinal order); `organisation_of`
    /// gives a location's organisation by ordinal. `None` when an id is negative or past 32
    /// bits, or the names past 4 GB: pins are then written from the rows.
    pub(crate) fn build<'a>(
        physical: &[Location],
        organisation_of: impl Fn(usize) -> &'a Organisation,
    ) -> Option<Self> {
        // Sized exactly first: at a million locations the names are some 40 MB, and growing
        // the arena by doubling would hold up to twice that at once.
        let length: usize = physical
            .iter()
            .map(|location| json_str_len(&location.name) + json_str_len(&location.location_name))
            .sum();
        let mut names = Vec::with_capacity(length);
        let mut records = Vec::with_capacity(physical.len());
        for (ordinal, location) in physical.iter().enumerate() {
            write_json_str(&location.name, &mut names);
            let name_end = u32::try_from(names.len()).ok()?;
            write_json_str(&location.location_name, &mut names);
            records.push(PinRecord {
                id: u32::try_from(organisation_of(ordinal).id).ok()?,
                location_id: u32::try_from(location.id).ok()?,
                name_end,
                names_end: u32::try_from(names.len()).ok()?,
            });
        }
        Some(Self { records, names })
    }

    /// The pin of a physical location.
    pub(crate) fn get(&self, ordinal: usize) -> RecordedPin<'_> {
        let record = self.records[ordinal];
        let start = match ordinal {
            0 => 0,
            _ => self.records[ordinal - 1].names_end as usize,
        };
        RecordedPin {
            id: record.id.into(),
            location_id: record.location_id.into(),
            name: &self.names[start..record.name_end as usize],
            location_name: &self.names[record.name_end as usize..record.names_end as usize],
        }
    }
}

/// How long a string is as serde_json writes it.
fn json_str_len(text: &str) -> usize {
    match needs_json_escape(text) {
        true => {
            let mut written = Vec::new();
            write_json_str(text, &mut written);
            written.len()
        }
        false => text.len() + 2,
    }
}
