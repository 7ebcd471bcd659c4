//! The serialisable answers of the engine: search cards and pages, pins, area pins and name
//! suggestions, with how they are written to JSON. Plain data: this module imports nothing
//! from the crate, so `cards` and every query can depend on it.

use chrono::{DateTime, Utc};
use domain::{CareModalities, LatLng};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Coordinates {
    pub lat: f64,
    pub lng: f64,
}

impl From<LatLng> for Coordinates {
    fn from(position: LatLng) -> Self {
        Self {
            lat: position.lat,
            lng: position.lng,
        }
    }
}

/// A location's services, serialised as `[{"serviceTypeCode": ".."}]` straight from the row.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Services<'a>(pub &'a [String]);

impl Serialize for Services<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{SerializeMap, SerializeSeq};
        struct Service<'a>(&'a str);
        impl Serialize for Service<'_> {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                let mut map = serializer.serialize_map(Some(1))?;
                map.serialize_entry("serviceTypeCode", self.0)?;
                map.end()
            }
        }
        let mut sequence = serializer.serialize_seq(Some(self.0.len()))?;
        for code in self.0 {
            sequence.serialize_element(&Service(code))?;
        }
        sequence.end()
    }
}

/// When a listing was last confirmed, as the UTC date a card carries (`"2026-08-01"`), or
/// `null` when never: members see "Not verified recently" past 120 days, which the web app
/// decides from today's date (a card is rendered once per snapshot, and a snapshot lives on).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VerifiedOn(pub Option<DateTime<Utc>>);

impl Serialize for VerifiedOn {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Some(at) => serializer.collect_str(&at.date_naive()),
            None => serializer.serialize_none(),
        }
    }
}

/// Distances are written to a ten-thousandth of a mile (about half a foot): the SPA shows two
/// decimals, and full precision made every card some fifteen bytes longer.
pub fn round_miles(miles: f64) -> f64 {
    (miles * 10_000.0).round() / 10_000.0
}

fn serialize_miles<S: serde::Serializer>(miles: &Option<f64>, serializer: S) -> Result<S::Ok, S::Error> {
    match miles {
        Some(miles) => serializer.serialize_f64(round_miles(*miles)),
        None => serializer.serialize_none(),
    }
}

/// A card's name: a clinic's, or a clinician's first and last name, joined only when written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CardName<'a> {
    Place(&'a str),
    Person { first: &'a str, last: &'a str },
}

impl std::fmt::Display for CardName<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Place(name) => f.write_str(name),
            Self::Person { first, last } => write!(f, "{first} {last}"),
        }
    }
}

impl Serialize for CardName<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Place(name) => serializer.serialize_str(name),
            Self::Person { .. } => serializer.collect_str(self),
        }
    }
}

/// Which rendered card a [`MarketItem`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CardKey {
    /// A clinic card, by location ordinal.
    Clinic(u32),
    /// A clinician seen at a location, by the position of that pairing in the snapshot's
    /// location-to-clinicians lists.
    Clinician(u32),
}

/// A card of the marketplace: a clinic location or a clinician. It borrows from the snapshot,
/// so a page of cards costs no copying; serialise it while the snapshot is held.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MarketItem<'a> {
    /// "location" for clinics, "provider" for clinicians.
    pub entity: &'static str,
    /// The organisation id for a location, the clinician id for a clinician.
    pub id: i64,
    pub location_id: i64,
    pub location_name: &'a str,
    pub name: CardName<'a>,
    pub organization_name: &'a str,
    pub credentials: &'a str,
    pub address: &'a str,
    pub city: &'a str,
    pub state: &'a str,
    pub zip_code: &'a str,
    pub logo: &'a str,
    pub coordinates: Coordinates,
    /// Miles from the search origin; absent for virtual locations.
    #[serde(serialize_with = "serialize_miles")]
    pub distance: Option<f64>,
    pub gender: Option<&'static str>,
    pub new_patients: bool,
    pub is_virtual_location: bool,
    pub home_care: bool,
    pub care_modality: CareModalities,
    pub speciality: &'a str,
    pub works_at: Option<&'a str>,
    pub category: &'a str,
    pub services: Services<'a>,
    pub last_verified: VerifiedOn,
    /// Whether the signed-in caller marked it as a favourite.
    pub favorite: bool,
    /// Whether the signed-in caller is on the waitlist of its clinic (the card's location).
    pub waitlisted: bool,
    /// The pre-rendered card this item is written from (see `Snapshot::search_json`).
    #[serde(skip)]
    pub card: CardKey,
}

/// A search answer: a page of clinics and the nearest matching clinicians.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchResponse<'a> {
    pub clinics: Vec<MarketItem<'a>>,
    pub clinicians: Vec<MarketItem<'a>>,
    pub total_pages: u32,
    pub current_page: u32,
    pub total_results: usize,
    /// Where distances are measured from.
    pub origin: Coordinates,
    pub radius_miles: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Pin<'a> {
    pub id: i64,
    pub location_id: i64,
    pub name: &'a str,
    /// The location's own name ("LoDo"), so pins of one organisation can be told apart.
    pub location_name: &'a str,
    pub coordinates: Coordinates,
    pub new_patients: bool,
    /// Whether the signed-in caller marked the location as a favourite.
    pub favorite: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PinsResponse<'a> {
    pub pins: Vec<Pin<'a>>,
    /// True when more than `limit` locations match: `pins` is then empty and the client should
    /// ask for area pins.
    pub over_limit: bool,
    pub limit: usize,
}

impl PinsResponse<'_> {
    /// The answer's JSON: the same bytes as serde's rendering of it. Written by hand because a
    /// crowded map at zoom 14 lists up to 2,000 pins (300 KB), and serde escaping every field
    /// name and every name byte by byte was half of such an answer's CPU.
    pub fn to_json(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(48 + 192 * self.pins.len());
        let pins = self.pins.iter().map(|pin| PinFields {
            id: pin.id,
            location_id: pin.location_id,
            name: JsonText::Plain(pin.name),
            location_name: JsonText::Plain(pin.location_name),
            coordinates: pin.coordinates,
            new_patients: pin.new_patients,
            favorite: pin.favorite,
        });
        write_pins_json(&mut out, pins, self.over_limit, self.limit);
        out
    }
}

/// A pins answer's JSON, byte for byte as serde writes a [`PinsResponse`] of these pins.
pub(crate) fn write_pins_json<'a>(
    out: &mut Vec<u8>,
    pins: impl IntoIterator<Item = PinFields<'a>>,
    over_limit: bool,
    limit: usize,
) {
    let mut integer = itoa::Buffer::new();
    out.extend_from_slice(b"{\"pins\":[");
    for (position, pin) in pins.into_iter().enumerate() {
        if position > 0 {
            out.push(b',');
        }
        write_pin(out, &mut integer, pin);
    }
    out.extend_from_slice(match over_limit {
        true => b"],\"overLimit\":true,\"limit\":",
        false => b"],\"overLimit\":false,\"limit\":",
    });
    out.extend_from_slice(integer.format(limit).as_bytes());
    out.push(b'}');
}

/// A text for a JSON answer: as it is, or already written as a JSON string (quotes and
/// escapes included).
#[derive(Debug, Clone, Copy)]
pub(crate) enum JsonText<'a> {
    Plain(&'a str),
    Written(&'a [u8]),
}

/// What one pin's JSON object is written from (a [`Pin`]'s fields, its names perhaps written
/// beforehand).
#[derive(Debug, Clone, Copy)]
pub(crate) struct PinFields<'a> {
    pub(crate) id: i64,
    pub(crate) location_id: i64,
    pub(crate) name: JsonText<'a>,
    pub(crate) location_name: JsonText<'a>,
    pub(crate) coordinates: Coordinates,
    pub(crate) new_patients: bool,
    pub(crate) favorite: bool,
}

/// One pin's JSON object, byte for byte as serde writes a [`Pin`].
fn write_pin(out: &mut Vec<u8>, integer: &mut itoa::Buffer, pin: PinFields<'_>) {
    out.extend_from_slice(b"{\"id\":");
    out.extend_from_slice(integer.format(pin.id).as_bytes());
    out.extend_from_slice(b",\"locationId\":");
    out.extend_from_slice(integer.format(pin.location_id).as_bytes());
    out.extend_from_slice(b",\"name\":");
    write_json_text(pin.name, out);
    out.extend_from_slice(b",\"locationName\":");
    write_json_text(pin.location_name, out);
    out.extend_from_slice(b",\"coordinates\":{\"lat\":");
    write_json_f64(pin.coordinates.lat, out);
    out.extend_from_slice(b",\"lng\":");
    write_json_f64(pin.coordinates.lng, out);
    out.extend_from_slice(match pin.new_patients {
        true => b"},\"newPatients\":true",
        false => b"},\"newPatients\":false",
    });
    out.extend_from_slice(match pin.favorite {
        true => b",\"favorite\":true}",
        false => b",\"favorite\":false}",
    });
}

fn write_json_text(text: JsonText<'_>, out: &mut Vec<u8>) {
    match text {
        JsonText::Plain(text) => write_json_str(text, out),
        JsonText::Written(json) => out.extend_from_slice(json),
    }
}

/// A string as serde_json writes it: copied whole when nothing in it needs escaping (the
/// usual name), else through serde_json.
pub(crate) fn write_json_str(text: &str, out: &mut Vec<u8>) {
    if needs_json_escape(text) {
        serde_json::to_writer(&mut *out, text).expect("writing to a Vec cannot fail");
    } else {
        out.push(b'"');
        out.extend_from_slice(text.as_bytes());
        out.push(b'"');
    }
}

/// Whether serde_json escapes anything in a string.
pub(crate) fn needs_json_escape(text: &str) -> bool {
    // Every byte is looked at (no early exit), so the test vectorises.
    text.bytes().fold(false, |found, byte| {
        found | (byte < 0x20) | (byte == b'"') | (byte == b'\\')
    })
}

/// A float as serde_json writes it (its shortest round-trip form by the same formatter; null
/// when not finite).
fn write_json_f64(value: f64, out: &mut Vec<u8>) {
    if value.is_finite() {
        out.extend_from_slice(zmij::Buffer::new().format_finite(value).as_bytes());
    } else {
        out.extend_from_slice(b"null");
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CellBounds {
    pub nw_lng: f64,
    pub nw_lat: f64,
    pub se_lng: f64,
    pub se_lat: f64,
}

/// A cluster of locations in one grid cell.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AreaPin {
    pub coordinates: Coordinates,
    pub count: usize,
    pub new_patients: usize,
    pub bounds: CellBounds,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AreaPinsResponse {
    pub areas: Vec<AreaPin>,
    pub total: usize,
    /// The grid level the cells come from (a Web Mercator zoom).
    pub cell_level: u32,
}

/// A name suggestion from the catalogue.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NameSuggestion {
    pub id: i64,
    pub location_id: i64,
    pub name: String,
    pub location_name: String,
    pub city: String,
    pub state: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pin<'a>(name: &'a str, location_name: &'a str, lat: f64, lng: f64) -> Pin<'a> {
        Pin {
            id: 7,
            location_id: -12,
            name,
            location_name,
            coordinates: Coordinates { lat, lng },
            new_patients: true,
            favorite: false,
        }
    }

    fn assert_as_serde(answer: &PinsResponse<'_>) {
        let serde = serde_json::to_vec(answer).unwrap();
        assert_eq!(
            String::from_utf8(answer.to_json()).unwrap(),
            String::from_utf8(serde).unwrap()
        );
    }

    #[test]
    fn pins_are_written_as_serde_writes_them() {
        let names = [
            ("Beacon Direct Primary Care", "Chassell"),
            ("Dr. \"Joe\" O'Neil", "Back\\slash"),
            ("Tab\there\nand\u{1}control\u{1f}", "Café Ñandú 診所 🩺"),
            ("", "\u{7f}\u{80}"),
        ];
        let pins: Vec<Pin<'_>> = names
            .iter()
            .zip([
                (46.996059, -88.582505),
                (0.0, -0.0),
                (1e-7, 179.999_999_9),
                (-89.5, 1e21),
            ])
            .map(|((name, location_name), (lat, lng))| pin(name, location_name, lat, lng))
            .collect();
        let mut flagged = pins.clone();
        flagged[1].new_patients = false;
        flagged[2].favorite = true;
        for pins in [Vec::new(), pins, flagged] {
            assert_as_serde(&PinsResponse {
                pins,
                over_limit: false,
                limit: 2_000,
            });
        }
        assert_as_serde(&PinsResponse {
            pins: Vec::new(),
            over_limit: true,
            limit: 2_000,
        });
        assert_as_serde(&PinsResponse {
            pins: vec![pin("x", "y", f64::NAN, f64::INFINITY)],
            over_limit: false,
            limit: 0,
        });
    }

    proptest::proptest! {
        #[test]
        fn any_pin_is_written_as_serde_writes_it(
            name in "\\PC*", location_name in ".*", lat in -90.0f64..90.0, lng in -180.0f64..180.0,
            id in proptest::num::i64::ANY, new_patients: bool, favorite: bool,
        ) {
            let mut one = pin(&name, &location_name, lat, lng);
            (one.id, one.new_patients, one.favorite) = (id, new_patients, favorite);
            let answer = PinsResponse { pins: vec![one], over_limit: false, limit: 2_000 };
            proptest::prop_assert_eq!(answer.to_json(), serde_json::to_vec(&answer).unwrap());
        }
    }
}
