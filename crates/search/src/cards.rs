//! Search answers written from pre-rendered cards.
//!
//! Serialising a page of 6 clinics and up to 24 clinicians field by field was the largest part
//! of a search request's CPU under load (string escaping and float formatting). A card's text
//! depends only on the snapshot, apart from its distance and the caller's favourite and
//! waitlist flags, so each card is rendered once, on first use, and an answer is then mostly
//! copies. The cache belongs to one snapshot: a patched snapshot starts with an empty one.
//!
//! Imports only `answer` (the types it writes); the snapshot owns a [`CardCache`].

use std::sync::atomic::{AtomicUsize, Ordering};

use crate::answer::{CardKey, Coordinates, MarketItem, SearchResponse, round_miles};
use crate::slots::ChunkedSlots;

/// A card to write: its cache slot, what is written per answer (distance, the caller's flags),
/// and the fields to render it from, asked for only when the cache does not hold its text. A
/// card's fields come from several rows of the snapshot, each a random memory access at a
/// million locations: a search from an origin not searched lately took 0.02 ms longer through
/// HTTP when every card's rows were read, cached or not.
pub(crate) trait CardSource<'a> {
    fn key(&self) -> CardKey;
    fn distance(&self) -> Option<f64>;
    /// Favourite, then waitlisted.
    fn flags(&self) -> (bool, bool);
    fn item(&self) -> MarketItem<'a>;
}

impl<'a> CardSource<'a> for MarketItem<'a> {
    fn key(&self) -> CardKey {
        self.card
    }

    fn distance(&self) -> Option<f64> {
        self.distance
    }

    fn flags(&self) -> (bool, bool) {
        (self.favorite, self.waitlisted)
    }

    fn item(&self) -> MarketItem<'a> {
        self.clone()
    }
}

/// The numbers that end a search answer.
#[derive(Debug, Clone, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct AnswerNumbers {
    pub(crate) total_pages: u32,
    pub(crate) current_page: u32,
    pub(crate) total_results: usize,
    pub(crate) origin: Coordinates,
    pub(crate) radius_miles: f64,
}

/// A card's JSON with the value of `"distance"` cut out and without the trailing
/// `,"favorite":false,"waitlisted":false}`: `text[..distance_at]` ends with `"distance":`.
struct RenderedCard {
    text: Box<str>,
    distance_at: usize,
}

const DISTANCE_FIELD: &str = ",\"distance\":";
/// The caller's flags end a card, written per answer: favourite, then waitlisted.
const FLAGS_TAIL: &str = ",\"favorite\":false,\"waitlisted\":false}";

impl RenderedCard {
    fn render(item: &MarketItem<'_>) -> Self {
        let blank = MarketItem {
            distance: None,
            favorite: false,
            waitlisted: false,
            ..item.clone()
        };
        let mut json = serde_json::to_string(&blank).expect("a card serialises");
        // Inside a JSON string every quote is escaped, so `,"distance":` only occurs as the field.
        let distance_at = json.find(DISTANCE_FIELD).expect("cards have a distance field") + DISTANCE_FIELD.len();
        json.replace_range(distance_at..distance_at + "null".len(), "");
        debug_assert!(
            json.ends_with(FLAGS_TAIL),
            "the caller's flags are the last fields of a card"
        );
        json.truncate(json.len() - FLAGS_TAIL.len());
        Self {
            text: json.into_boxed_str(),
            distance_at,
        }
    }

    fn write(&self, distance: Option<f64>, flags: (bool, bool), out: &mut Vec<u8>) {
        let (head, tail) = self.text.split_at(self.distance_at);
        out.extend_from_slice(head.as_bytes());
        match distance {
            Some(miles) => write_miles(miles, out),
            None => out.extend_from_slice(b"null"),
        }
        out.extend_from_slice(tail.as_bytes());
        let flags: &[u8] = match flags {
            (false, false) => FLAGS_TAIL.as_bytes(),
            (true, false) => b",\"favorite\":true,\"waitlisted\":false}",
            (false, true) => b",\"favorite\":false,\"waitlisted\":true}",
            (true, true) => b",\"favorite\":true,\"waitlisted\":true}",
        };
        out.extend_from_slice(flags);
    }
}

/// Writes `round_miles(miles)` as serde writes that float, from its whole ten-thousandths: a
/// float to a ten-thousandth has no shorter decimal that reads back as it (two such decimals are
/// never one float below 2^53 / 10^4), so serde's shortest form is those digits, trailing zeros
/// cut, keeping one after the point. Thirty distances an answer went through float formatting.
fn write_miles(miles: f64, out: &mut Vec<u8>) {
    let rounded = round_miles(miles);
    let ten_thousandths = (rounded * 10_000.0).round();
    if !(0.0..1e12).contains(&ten_thousandths) {
        serde_json::to_writer(&mut *out, &rounded).expect("writing to a Vec cannot fail");
        return;
    }
    let ten_thousandths = ten_thousandths as u64;
    let (whole, mut fraction) = (ten_thousandths / 10_000, ten_thousandths % 10_000);
    let mut buffer = itoa::Buffer::new();
    out.extend_from_slice(buffer.format(whole).as_bytes());
    out.push(b'.');
    if fraction == 0 {
        out.push(b'0');
        return;
    }
    let mut digits = 4;
    while fraction % 10 == 0 {
        fraction /= 10;
        digits -= 1;
    }
    let text = buffer.format(fraction);
    out.extend(std::iter::repeat_n(b'0', digits - text.len()));
    out.extend_from_slice(text.as_bytes());
}

/// Bytes of card text a snapshot keeps: about 23,000 cards (some 770 whole answers), the
/// places people search most. Unbounded, a server at a million locations would grow by up to
/// 1.3 GB as every clinic and clinician link got shown once; cards beyond it are rendered for
/// each answer (about a microsecond each).
const CARD_BUDGET_BYTES: usize = 16 << 20;

/// Card slots per chunk: a page's clinics are near one another, so in Morton order they share
/// a few chunks, and their clinician links follow theirs.
const CARD_CHUNK: usize = 32;

type CardSlots = ChunkedSlots<RenderedCard, CARD_CHUNK>;

/// Rendered cards, filled lazily up to a budget.
pub(crate) struct CardCache {
    clinics: CardSlots,
    clinicians: CardSlots,
    budget_bytes: usize,
    kept_bytes: AtomicUsize,
}

impl CardCache {
    pub(crate) fn new(locations: usize, clinician_links: usize) -> Self {
        Self::with_budget(locations, clinician_links, CARD_BUDGET_BYTES)
    }

    pub(crate) fn with_budget(locations: usize, clinician_links: usize, budget_bytes: usize) -> Self {
        Self {
            clinics: CardSlots::new(locations),
            clinicians: CardSlots::new(clinician_links),
            budget_bytes,
            kept_bytes: AtomicUsize::new(0),
        }
    }

    /// Bytes the cache keeps so far: card text and the chunks of slots holding it.
    pub(crate) fn kept_bytes(&self) -> usize {
        self.kept_bytes.load(Ordering::Relaxed)
    }
}

impl std::fmt::Debug for CardCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CardCache")
            .field("budget_bytes", &self.budget_bytes)
            .field("kept_bytes", &self.kept_bytes())
            .finish()
    }
}

impl CardCache {
    /// The JSON of a search answer, equal to serde's rendering of it (favourite and waitlist
    /// flags and distances as the items carry them), written mostly from cached cards. The answer must
    /// come from the snapshot that owns this cache.
    pub(crate) fn write_answer(&self, answer: &SearchResponse<'_>) -> Vec<u8> {
        let numbers = AnswerNumbers {
            total_pages: answer.total_pages,
            current_page: answer.current_page,
            total_results: answer.total_results,
            origin: answer.origin,
            radius_miles: answer.radius_miles,
        };
        self.write_cards_and_numbers(&answer.clinics, &answer.clinicians, &numbers)
    }

    /// An answer's JSON from its clinic and clinician cards and its numbers, as
    /// [`Self::write_answer`] writes it. The cards must come from the snapshot that owns this cache.
    pub(crate) fn write_cards_and_numbers<'a, C: CardSource<'a>>(
        &self,
        clinics: &[C],
        clinicians: &[C],
        numbers: &AnswerNumbers,
    ) -> Vec<u8> {
        // Looked up once, before any is copied. Sized from the cached cards, so the 20-odd KB
        // are not copied again as they grow.
        let cached: Vec<Option<&RenderedCard>> = clinics
            .iter()
            .chain(clinicians)
            .map(|card| self.cached(card.key()))
            .collect();
        let expected: usize = cached
            .iter()
            .map(|rendered| rendered.map_or(1024, |rendered| rendered.text.len() + 64))
            .sum();
        // One byte of every line of every card read here, with nothing between the loads: at a
        // million locations a card is a cache miss away, and loads the processor sees together
        // wait for memory together, where the copies below met them one by one (the cards' share
        // of a search from scattered origins fell from 8.2 to 6.6 µs, search-loop, 7 pairs).
        let touched = cached
            .iter()
            .flatten()
            .flat_map(|rendered| rendered.text.as_bytes().iter().step_by(64))
            .fold(0u8, |seen, byte| seen ^ byte);
        std::hint::black_box(touched);
        let mut out = Vec::with_capacity(256 + expected);
        let (cached_clinics, cached_clinicians) = cached.split_at(clinics.len());
        out.extend_from_slice(b"{\"clinics\":");
        self.write_cards(clinics, cached_clinics, &mut out);
        out.extend_from_slice(b",\"clinicians\":");
        self.write_cards(clinicians, cached_clinicians, &mut out);
        let numbers = serde_json::to_vec(numbers).expect("the answer's numbers serialise");
        out.push(b',');
        out.extend_from_slice(&numbers[1..]);
        out
    }

    fn slots(&self, key: CardKey) -> (&CardSlots, usize) {
        match key {
            CardKey::Clinic(ordinal) => (&self.clinics, ordinal as usize),
            CardKey::Clinician(link) => (&self.clinicians, link as usize),
        }
    }

    fn cached(&self, key: CardKey) -> Option<&RenderedCard> {
        let (slots, index) = self.slots(key);
        slots.get(index)
    }

    /// Writes `cards`, given what the cache held for each.
    fn write_cards<'a, C: CardSource<'a>>(&self, cards: &[C], cached: &[Option<&RenderedCard>], out: &mut Vec<u8>) {
        out.push(b'[');
        for (position, (card, cached)) in cards.iter().zip(cached).enumerate() {
            if position > 0 {
                out.push(b',');
            }
            if let Some(rendered) = cached {
                rendered.write(card.distance(), card.flags(), out);
                continue;
            }
            let rendered = RenderedCard::render(&card.item());
            rendered.write(card.distance(), card.flags(), out);
            self.keep(card.key(), rendered);
        }
        out.push(b']');
    }

    /// Keeps a rendered card if it fits in the budget, with its chunk of slots when that is new.
    fn keep(&self, key: CardKey, rendered: RenderedCard) {
        let (slots, index) = self.slots(key);
        let size = rendered.text.len();
        // Two threads may both pass the check near the end; the budget is a bound on growth,
        // not an exact figure.
        if self.kept_bytes.load(Ordering::Relaxed) + size + slots.chunk_cost(index) > self.budget_bytes {
            return;
        }
        let (_, card_kept, chunk_made) = slots.fill(index, rendered);
        let kept = if card_kept { size } else { 0 } + if chunk_made { CardSlots::CHUNK_BYTES } else { 0 };
        self.kept_bytes.fetch_add(kept, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn as_serde_writes(miles: f64) -> String {
        serde_json::to_string(&round_miles(miles)).unwrap()
    }

    fn as_written(miles: f64) -> String {
        let mut out = Vec::new();
        write_miles(miles, &mut out);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn distances_are_written_as_serde_writes_them() {
        for miles in [
            0.0,
            0.00004,
            0.00005,
            0.0001,
            0.001,
            0.0426,
            0.1,
            1.0,
            2.5,
            10.0,
            29.99995,
            30.0,
            100.05,
            12_450.123_4,
        ] {
            assert_eq!(as_written(miles), as_serde_writes(miles), "{miles}");
        }
    }

    proptest::proptest! {
        #[test]
        fn any_distance_is_written_as_serde_writes_it(miles in 0.0f64..25_000.0, ten_thousandths in 0u64..250_000_000) {
            proptest::prop_assert_eq!(as_written(miles), as_serde_writes(miles));
            let exact = ten_thousandths as f64 / 10_000.0;
            proptest::prop_assert_eq!(as_written(exact), as_serde_writes(exact));
        }
    }
}
