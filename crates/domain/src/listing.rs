//! The facts a clinic keeps true in its own listing (docs/listings-contract.md): opening hours,
//! its time zone, languages spoken, accessibility, telehealth, services, pediatric ages and
//! panel capacity, with the freshness rules of `lastVerified`. Each type parses what a provider
//! sends and refuses anything else with a [`ListingError`] naming the field; the codes are the
//! ones the FHIR Plan-Net export writes (ISO 639 / BCP 47 languages, Plan-Net's
//! `AccessibilityCS`, X12 service type codes).

use std::fmt;
use std::sync::LazyLock;

use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

mod patch;

pub use patch::{CLINICIAN_FIELDS, ClinicianPatch, LOCATION_FIELDS, LocationPatch};

// ---- Freshness ----------------------------------------------------------------------------

/// A listing unconfirmed for longer than this is past due: its organisation is reminded.
pub const ATTESTATION_DUE_DAYS: i64 = 90;
/// Members are told a listing unconfirmed for longer than this is "Not verified recently".
pub const NOT_VERIFIED_RECENTLY_DAYS: i64 = 120;
/// An organisation is reminded at most once in this many days.
pub const REMINDER_INTERVAL_DAYS: i64 = 7;

/// Whether a listing last confirmed at `last_verified` (never: `None`) is past due at `now`.
pub fn attestation_due(last_verified: Option<DateTime<Utc>>, now: DateTime<Utc>) -> bool {
    last_verified.is_none_or(|verified| now - verified > Duration::days(ATTESTATION_DUE_DAYS))
}

/// Whether members see a listing as confirmed recently (within 120 days of `now`).
pub fn verified_recently(last_verified: Option<DateTime<Utc>>, now: DateTime<Utc>) -> bool {
    last_verified.is_some_and(|verified| now - verified <= Duration::days(NOT_VERIFIED_RECENTLY_DAYS))
}

// ---- Errors -------------------------------------------------------------------------------

/// Why a listing value was refused; the field is named as the request wrote it
/// (`hours.mon[1].closes`, `languages[2]`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListingError {
    pub field: String,
    pub kind: ListingErrorKind,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ListingErrorKind {
    /// A field this call does not take.
    UnknownField,
    /// A value of the wrong JSON type; says what was expected.
    WrongType(&'static str),
    /// A code outside its code list (a language, an accessibility or service code, a time zone).
    UnknownCode(String),
    /// A number or time outside its range; says which.
    OutOfRange(String),
    /// Any other refused value; says why.
    Invalid(String),
    /// A body that names no field to change.
    NothingToChange,
}

impl ListingError {
    pub fn new(field: impl Into<String>, kind: ListingErrorKind) -> Self {
        Self {
            field: field.into(),
            kind,
        }
    }

    /// The stable code the API answers with.
    pub fn code(&self) -> &'static str {
        match self.kind {
            ListingErrorKind::UnknownField => "unknown_field",
            ListingErrorKind::WrongType(_) => "invalid_type",
            ListingErrorKind::UnknownCode(_) => "unknown_code",
            ListingErrorKind::OutOfRange(_) => "out_of_range",
            ListingErrorKind::Invalid(_) => "invalid_value",
            ListingErrorKind::NothingToChange => "nothing_to_change",
        }
    }

    fn wrong_type(field: impl Into<String>, expected: &'static str) -> Self {
        Self::new(field, ListingErrorKind::WrongType(expected))
    }

    fn invalid(field: impl Into<String>, why: impl Into<String>) -> Self {
        Self::new(field, ListingErrorKind::Invalid(why.into()))
    }

    fn out_of_range(field: impl Into<String>, why: impl Into<String>) -> Self {
        Self::new(field, ListingErrorKind::OutOfRange(why.into()))
    }
}

impl fmt::Display for ListingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let field = &self.field;
        match &self.kind {
            ListingErrorKind::UnknownField => write!(f, "{field} is not a field of this listing"),
            ListingErrorKind::WrongType(expected) => write!(f, "{field} must be {expected}"),
            ListingErrorKind::UnknownCode(code) => write!(f, "{field}: {code:?} is not a known code"),
            ListingErrorKind::OutOfRange(why) | ListingErrorKind::Invalid(why) => write!(f, "{field} {why}"),
            ListingErrorKind::NothingToChange => f.write_str("Send at least one field to change"),
        }
    }
}

impl std::error::Error for ListingError {}

// ---- Languages ----------------------------------------------------------------------------

const LANGUAGES_CSV: &str = include_str!("../../../data/languages/languages.csv");

/// A language a listing may name: its ISO 639 code (two letters where ISO 639-1 has one, as
/// BCP 47 writes it) and its English name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LanguageInfo {
    pub code: &'static str,
    pub name: &'static str,
}

static LANGUAGES: LazyLock<Vec<LanguageInfo>> = LazyLock::new(|| {
    LANGUAGES_CSV
        .lines()
        .skip(1)
        .filter_map(|line| line.split_once(','))
        .map(|(code, name)| LanguageInfo { code, name })
        .collect()
});

/// Every language a listing may name, sorted by code (`data/languages/languages.csv`).
pub fn languages() -> &'static [LanguageInfo] {
    &LANGUAGES
}

/// One language of [`languages`]; two bytes, since a million listings carry them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Language(u16);

impl Language {
    /// The language of an ISO 639 code, in any case; `None` for a code not in the list.
    pub fn parse(code: &str) -> Option<Self> {
        let wanted = code.trim().to_ascii_lowercase();
        languages()
            .binary_search_by(|language| language.code.cmp(wanted.as_str()))
            .ok()
            .map(|position| Self(position as u16))
    }

    pub fn code(self) -> &'static str {
        languages()[usize::from(self.0)].code
    }

    pub fn name(self) -> &'static str {
        languages()[usize::from(self.0)].name
    }

    /// The language's position in [`languages`]: a dense key for per-language tables.
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// The language at a position of [`languages`].
    pub fn from_index(index: usize) -> Option<Self> {
        (index < languages().len()).then_some(Self(index as u16))
    }
}

impl fmt::Display for Language {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

impl Serialize for Language {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.code())
    }
}

impl<'de> Deserialize<'de> for Language {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let code = String::deserialize(deserializer)?;
        Self::parse(&code).ok_or_else(|| serde::de::Error::custom(format!("unknown language code {code:?}")))
    }
}

/// The languages of a listing, sorted by code, each once.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(from = "Vec<Language>", into = "Vec<Language>")]
pub struct LanguageSet(Box<[Language]>);

impl LanguageSet {
    pub fn new(languages: impl IntoIterator<Item = Language>) -> Self {
        let mut languages: Vec<Language> = languages.into_iter().collect();
        languages.sort_unstable_by_key(|language| language.code());
        languages.dedup();
        Self(languages.into_boxed_slice())
    }

    /// Parses codes, naming the first unknown one as `field[index]`.
    pub fn parse_codes<'a>(field: &str, codes: impl IntoIterator<Item = &'a str>) -> Result<Self, ListingError> {
        let mut languages = Vec::new();
        for (index, code) in codes.into_iter().enumerate() {
            let language = Language::parse(code).ok_or_else(|| {
                ListingError::new(
                    format!("{field}[{index}]"),
                    ListingErrorKind::UnknownCode(code.to_owned()),
                )
            })?;
            languages.push(language);
        }
        Ok(Self::new(languages))
    }

    pub fn iter(&self) -> impl ExactSizeIterator<Item = Language> + '_ {
        self.0.iter().copied()
    }

    pub fn contains(&self, language: Language) -> bool {
        self.0.contains(&language)
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// The codes, as PostgreSQL's `text[]` stores them.
    pub fn codes(&self) -> Vec<String> {
        self.iter().map(|language| language.code().to_owned()).collect()
    }
}

impl From<Vec<Language>> for LanguageSet {
    fn from(languages: Vec<Language>) -> Self {
        Self::new(languages)
    }
}

impl From<LanguageSet> for Vec<Language> {
    fn from(set: LanguageSet) -> Self {
        set.0.into_vec()
    }
}

// ---- Accessibility ------------------------------------------------------------------------

/// The Plan-Net accessibility codes (`AccessibilityCS` of the Da Vinci PDex Plan-Net guide,
/// system `http://hl7.org/fhir/us/davinci-pdex-plan-net/CodeSystem/AccessibilityCS`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Accessibility {
    CulturalCompetence,
    HandicapAccessible,
    AdaCompliant,
    PublicTransit,
    AnsweringService,
    Cognitive,
    Mobility,
}

impl Accessibility {
    pub const ALL: [Self; 7] = [
        Self::HandicapAccessible,
        Self::AdaCompliant,
        Self::Mobility,
        Self::Cognitive,
        Self::CulturalCompetence,
        Self::PublicTransit,
        Self::AnsweringService,
    ];

    /// The Plan-Net code.
    pub fn code(self) -> &'static str {
        match self {
            Self::CulturalCompetence => "cultcomp",
            Self::HandicapAccessible => "handiaccess",
            Self::AdaCompliant => "adacomp",
            Self::PublicTransit => "pubtrans",
            Self::AnsweringService => "anssrvc",
            Self::Cognitive => "cognitive",
            Self::Mobility => "mobility",
        }
    }

    /// What a member reads (Plan-Net's display names, in plain words).
    pub fn label(self) -> &'static str {
        match self {
            Self::CulturalCompetence => "Cultural and language support (interpreters)",
            Self::HandicapAccessible => "Accessible to people with disabilities (wheelchair access)",
            Self::AdaCompliant => "ADA compliant building",
            Self::PublicTransit => "Reachable by public transit",
            Self::AnsweringService => "Answering service after hours",
            Self::Cognitive => "Services for people with cognitive impairments",
            Self::Mobility => "Services for people with limited mobility",
        }
    }

    pub fn parse(code: &str) -> Option<Self> {
        let code = code.trim();
        Self::ALL
            .into_iter()
            .find(|known| known.code().eq_ignore_ascii_case(code))
    }

    fn bit(self) -> u16 {
        1 << (self as u16)
    }
}

/// A listing's accessibility codes, as bits (a million listings carry them).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct AccessibilitySet(u16);

impl AccessibilitySet {
    pub fn new(codes: impl IntoIterator<Item = Accessibility>) -> Self {
        Self(codes.into_iter().fold(0, |bits, code| bits | code.bit()))
    }

    /// Parses codes, naming the first unknown one as `field[index]`.
    pub fn parse_codes<'a>(field: &str, codes: impl IntoIterator<Item = &'a str>) -> Result<Self, ListingError> {
        let mut set = Self::default();
        for (index, code) in codes.into_iter().enumerate() {
            let known = Accessibility::parse(code).ok_or_else(|| {
                ListingError::new(
                    format!("{field}[{index}]"),
                    ListingErrorKind::UnknownCode(code.to_owned()),
                )
            })?;
            set.0 |= known.bit();
        }
        Ok(set)
    }

    pub fn contains(self, code: Accessibility) -> bool {
        self.0 & code.bit() != 0
    }

    /// The codes in [`Accessibility::ALL`] order.
    pub fn iter(self) -> impl Iterator<Item = Accessibility> {
        Accessibility::ALL.into_iter().filter(move |code| self.contains(*code))
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub fn codes(self) -> Vec<String> {
        self.iter().map(|code| code.code().to_owned()).collect()
    }
}

/// Readable formats get the list of codes; compact binary ones (a snapshot's rows) the bits.
impl Serialize for AccessibilitySet {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if serializer.is_human_readable() {
            let codes: Vec<&str> = self.iter().map(Accessibility::code).collect();
            codes.serialize(serializer)
        } else {
            serializer.serialize_u16(self.0)
        }
    }
}

impl<'de> Deserialize<'de> for AccessibilitySet {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        if !deserializer.is_human_readable() {
            let bits = u16::deserialize(deserializer)?;
            let known = Accessibility::ALL.iter().fold(0, |all, code| all | code.bit());
            if bits & !known != 0 {
                return Err(serde::de::Error::custom(format!(
                    "unknown accessibility bits {bits:#x}"
                )));
            }
            return Ok(Self(bits));
        }
        let codes = Vec::<String>::deserialize(deserializer)?;
        Self::parse_codes("accessibility", codes.iter().map(String::as_str)).map_err(serde::de::Error::custom)
    }
}

// ---- Services -----------------------------------------------------------------------------

/// A service type a clinic may offer: its X12 service type code (what search filters and cards
/// carry) and the label members and providers read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ServiceType {
    pub code: &'static str,
    pub label: &'static str,
}

/// The service types of the catalogue; BH is pediatrics.
pub const SERVICE_TYPES: [ServiceType; 5] = [
    ServiceType {
        code: "30",
        label: "Primary care",
    },
    ServiceType {
        code: "98",
        label: "Office visits",
    },
    ServiceType {
        code: "BH",
        label: "Pediatric care",
    },
    ServiceType {
        code: "MH",
        label: "Mental health",
    },
    ServiceType {
        code: "UC",
        label: "Urgent care",
    },
];

/// The service type of a code (any case); `None` for an unknown code.
pub fn service_type(code: &str) -> Option<ServiceType> {
    let code = code.trim();
    SERVICE_TYPES
        .into_iter()
        .find(|service| service.code.eq_ignore_ascii_case(code))
}

/// Youngest and oldest pediatric patient a clinic takes, in whole years.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PediatricAges {
    pub min: i16,
    pub max: i16,
}

/// Pediatric ages run from 0 to 17 (18 and over are adults).
pub const PEDIATRIC_MAX_AGE: i16 = 17;

// ---- Time zones ---------------------------------------------------------------------------

/// The IANA time zones of US clinics. A location without one is in its state's main zone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TimeZone {
    NewYork,
    Detroit,
    Indianapolis,
    Louisville,
    Chicago,
    Denver,
    Boise,
    Phoenix,
    LosAngeles,
    Anchorage,
    Honolulu,
    PuertoRico,
}

impl TimeZone {
    pub const ALL: [Self; 12] = [
        Self::NewYork,
        Self::Detroit,
        Self::Indianapolis,
        Self::Louisville,
        Self::Chicago,
        Self::Denver,
        Self::Boise,
        Self::Phoenix,
        Self::LosAngeles,
        Self::Anchorage,
        Self::Honolulu,
        Self::PuertoRico,
    ];

    /// The IANA name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::NewYork => "America/New_York",
            Self::Detroit => "America/Detroit",
            Self::Indianapolis => "America/Indiana/Indianapolis",
            Self::Louisville => "America/Kentucky/Louisville",
            Self::Chicago => "America/Chicago",
            Self::Denver => "America/Denver",
            Self::Boise => "America/Boise",
            Self::Phoenix => "America/Phoenix",
            Self::LosAngeles => "America/Los_Angeles",
            Self::Anchorage => "America/Anchorage",
            Self::Honolulu => "Pacific/Honolulu",
            Self::PuertoRico => "America/Puerto_Rico",
        }
    }

    /// What a provider reads when choosing one.
    pub fn label(self) -> &'static str {
        match self {
            Self::NewYork => "Eastern (New York)",
            Self::Detroit => "Eastern (Detroit)",
            Self::Indianapolis => "Eastern (Indianapolis)",
            Self::Louisville => "Eastern (Louisville)",
            Self::Chicago => "Central (Chicago)",
            Self::Denver => "Mountain (Denver)",
            Self::Boise => "Mountain (Boise)",
            Self::Phoenix => "Mountain, no daylight saving (Phoenix)",
            Self::LosAngeles => "Pacific (Los Angeles)",
            Self::Anchorage => "Alaska (Anchorage)",
            Self::Honolulu => "Hawaii (Honolulu)",
            Self::PuertoRico => "Atlantic (Puerto Rico)",
        }
    }

    pub fn parse(name: &str) -> Option<Self> {
        let name = name.trim();
        Self::ALL.into_iter().find(|zone| zone.as_str() == name)
    }

    /// The zone most of a state keeps (USPS code); Eastern for an unknown code.
    pub fn for_state(state: &str) -> Self {
        match state {
            "AL" | "AR" | "IA" | "IL" | "KS" | "LA" | "MN" | "MO" | "MS" | "ND" | "NE" | "OK" | "SD" | "TN" | "TX"
            | "WI" => Self::Chicago,
            "CO" | "MT" | "NM" | "UT" | "WY" => Self::Denver,
            "ID" => Self::Boise,
            "AZ" => Self::Phoenix,
            "CA" | "NV" | "OR" | "WA" => Self::LosAngeles,
            "AK" => Self::Anchorage,
            "HI" => Self::Honolulu,
            "PR" => Self::PuertoRico,
            "MI" => Self::Detroit,
            "IN" => Self::Indianapolis,
            "KY" => Self::Louisville,
            _ => Self::NewYork,
        }
    }
}

impl fmt::Display for TimeZone {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for TimeZone {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for TimeZone {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = String::deserialize(deserializer)?;
        Self::parse(&name).ok_or_else(|| serde::de::Error::custom(format!("unknown time zone {name:?}")))
    }
}

// ---- Opening hours ------------------------------------------------------------------------

/// A day of the week, with FHIR's codes (`mon` ... `sun`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Weekday {
    Mon,
    Tue,
    Wed,
    Thu,
    Fri,
    Sat,
    Sun,
}

impl Weekday {
    pub const ALL: [Self; 7] = [
        Self::Mon,
        Self::Tue,
        Self::Wed,
        Self::Thu,
        Self::Fri,
        Self::Sat,
        Self::Sun,
    ];

    pub fn code(self) -> &'static str {
        match self {
            Self::Mon => "mon",
            Self::Tue => "tue",
            Self::Wed => "wed",
            Self::Thu => "thu",
            Self::Fri => "fri",
            Self::Sat => "sat",
            Self::Sun => "sun",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Self::Mon => "Monday",
            Self::Tue => "Tuesday",
            Self::Wed => "Wednesday",
            Self::Thu => "Thursday",
            Self::Fri => "Friday",
            Self::Sat => "Saturday",
            Self::Sun => "Sunday",
        }
    }

    pub fn parse(code: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|day| day.code() == code)
    }
}

/// A time of day in minutes after midnight, written `HH:MM`; `24:00` closes a day.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ClockTime(u16);

impl ClockTime {
    pub const MIDNIGHT: Self = Self(0);
    pub const END_OF_DAY: Self = Self(24 * 60);

    /// A time from hours and minutes; `None` past 24:00.
    pub fn new(hours: u16, minutes: u16) -> Option<Self> {
        let total = hours.checked_mul(60)?.checked_add(minutes)?;
        (minutes < 60 && total <= 24 * 60).then_some(Self(total))
    }

    /// Parses `HH:MM` (two digits each), 00:00 to 24:00.
    pub fn parse(text: &str) -> Option<Self> {
        let (hours, minutes) = text.split_once(':')?;
        let two_digits = |part: &str| part.len() == 2 && part.bytes().all(|b| b.is_ascii_digit());
        if !two_digits(hours) || !two_digits(minutes) {
            return None;
        }
        let hours: u16 = hours.parse().ok()?;
        let minutes: u16 = minutes.parse().ok()?;
        Self::new(hours, minutes)
    }

    pub fn minutes(self) -> u16 {
        self.0
    }
}

impl fmt::Display for ClockTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:02}:{:02}", self.0 / 60, self.0 % 60)
    }
}

/// One opening of a day: from `opens` until `closes` (exclusive), on the same day.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct OpeningRange {
    pub day: Weekday,
    pub opens: ClockTime,
    pub closes: ClockTime,
}

/// Ranges a day may have (a lunch break makes two; more is a typing slip).
pub const MAX_RANGES_PER_DAY: usize = 4;

/// A week of opening hours: each day's ranges, in order, not overlapping. A day without ranges
/// is closed. Written as `{"mon": [{"opens": "08:00", "closes": "12:00"}, ...], ..., "sun": []}`
/// with every day named.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct WeeklyHours(Box<[OpeningRange]>);

impl WeeklyHours {
    /// Hours from ranges in any order; refuses a range that does not open before it closes,
    /// ranges that overlap, and more than [`MAX_RANGES_PER_DAY`] a day. The field named is
    /// `hours.<day>`.
    pub fn new(ranges: impl IntoIterator<Item = OpeningRange>) -> Result<Self, ListingError> {
        let mut ranges: Vec<OpeningRange> = ranges.into_iter().collect();
        ranges.sort_by_key(|range| (range.day, range.opens, range.closes));
        for range in &ranges {
            if range.opens >= range.closes {
                return Err(ListingError::invalid(
                    format!("hours.{}", range.day.code()),
                    format!(
                        "opens at {} but closes at {}: a range must open before it closes",
                        range.opens, range.closes
                    ),
                ));
            }
        }
        for pair in ranges.windows(2) {
            if pair[0].day == pair[1].day && pair[1].opens < pair[0].closes {
                return Err(ListingError::invalid(
                    format!("hours.{}", pair[0].day.code()),
                    format!(
                        "has ranges that overlap ({}-{} and {}-{})",
                        pair[0].opens, pair[0].closes, pair[1].opens, pair[1].closes
                    ),
                ));
            }
        }
        for day in Weekday::ALL {
            if ranges.iter().filter(|range| range.day == day).count() > MAX_RANGES_PER_DAY {
                return Err(ListingError::out_of_range(
                    format!("hours.{}", day.code()),
                    format!("has more than {MAX_RANGES_PER_DAY} ranges"),
                ));
            }
        }
        Ok(Self(ranges.into_boxed_slice()))
    }

    /// Parses the JSON form, naming the field at fault (`hours.tue[0].closes`).
    pub fn from_json(value: &serde_json::Value) -> Result<Self, ListingError> {
        let days = value
            .as_object()
            .ok_or_else(|| ListingError::wrong_type("hours", "an object of days (mon ... sun) or null"))?;
        let mut ranges = Vec::new();
        for (key, day_ranges) in days {
            let field = format!("hours.{key}");
            let day = Weekday::parse(key).ok_or_else(|| ListingError::new(&field, ListingErrorKind::UnknownField))?;
            let list = day_ranges
                .as_array()
                .ok_or_else(|| ListingError::wrong_type(&field, "a list of {opens, closes} ranges ([] when closed)"))?;
            for (index, range) in list.iter().enumerate() {
                let field = format!("{field}[{index}]");
                let object = range
                    .as_object()
                    .ok_or_else(|| ListingError::wrong_type(&field, "an object {opens, closes}"))?;
                if let Some(extra) = object.keys().find(|key| *key != "opens" && *key != "closes") {
                    return Err(ListingError::new(
                        format!("{field}.{extra}"),
                        ListingErrorKind::UnknownField,
                    ));
                }
                let time = |name: &str| -> Result<ClockTime, ListingError> {
                    let field = format!("{field}.{name}");
                    let text = object
                        .get(name)
                        .ok_or_else(|| ListingError::invalid(&field, "is required"))?
                        .as_str()
                        .ok_or_else(|| ListingError::wrong_type(&field, "a time as \"HH:MM\""))?;
                    ClockTime::parse(text).ok_or_else(|| {
                        ListingError::out_of_range(
                            &field,
                            format!("{text:?} is not a time from 00:00 to 24:00 (HH:MM)"),
                        )
                    })
                };
                ranges.push(OpeningRange {
                    day,
                    opens: time("opens")?,
                    closes: time("closes")?,
                });
            }
        }
        Self::new(ranges)
    }

    /// The JSON form, every day named.
    pub fn to_json(&self) -> serde_json::Value {
        let mut days = serde_json::Map::new();
        for day in Weekday::ALL {
            let ranges: Vec<serde_json::Value> = self
                .on(day)
                .map(
                    |range| serde_json::json!({ "opens": range.opens.to_string(), "closes": range.closes.to_string() }),
                )
                .collect();
            days.insert(day.code().to_owned(), serde_json::Value::Array(ranges));
        }
        serde_json::Value::Object(days)
    }

    /// A day's ranges, in order.
    pub fn on(&self, day: Weekday) -> impl Iterator<Item = &OpeningRange> {
        self.0.iter().filter(move |range| range.day == day)
    }

    pub fn ranges(&self) -> &[OpeningRange] {
        &self.0
    }

    /// Whether the clinic is open on `day` at `time` (its own local time).
    pub fn is_open(&self, day: Weekday, time: ClockTime) -> bool {
        self.on(day).any(|range| range.opens <= time && time < range.closes)
    }
}

/// JSON and other readable formats get the object of days; compact binary ones (a snapshot's
/// postcard rows) get `(day, opens, closes)` triples in minutes, since they cannot carry an
/// object read without a schema.
impl Serialize for WeeklyHours {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if serializer.is_human_readable() {
            return self.to_json().serialize(serializer);
        }
        serializer.collect_seq(
            self.0
                .iter()
                .map(|range| (range.day as u8, range.opens.0, range.closes.0)),
        )
    }
}

impl<'de> Deserialize<'de> for WeeklyHours {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        if deserializer.is_human_readable() {
            let value = serde_json::Value::deserialize(deserializer)?;
            return Self::from_json(&value).map_err(serde::de::Error::custom);
        }
        let triples = Vec::<(u8, u16, u16)>::deserialize(deserializer)?;
        let ranges = triples
            .into_iter()
            .map(|(day, opens, closes)| {
                let day = Weekday::ALL
                    .get(usize::from(day))
                    .copied()
                    .ok_or_else(|| serde::de::Error::custom(format!("day {day} is not a weekday")))?;
                let time = |minutes: u16| {
                    ClockTime::new(minutes / 60, minutes % 60)
                        .ok_or_else(|| serde::de::Error::custom(format!("{minutes} minutes is past 24:00")))
                };
                Ok(OpeningRange {
                    day,
                    opens: time(opens)?,
                    closes: time(closes)?,
                })
            })
            .collect::<Result<Vec<_>, D::Error>>()?;
        Self::new(ranges).map_err(serde::de::Error::custom)
    }
}

// ---- Panel capacity -----------------------------------------------------------------------

/// The largest panel a location may give (members); a clinic of many clinicians stays far below.
pub const PANEL_CAPACITY_MAX: u32 = 100_000;

// ---- Contact fields -----------------------------------------------------------------------

/// The longest website address a listing keeps.
pub const WEBSITE_MAX_CHARS: usize = 200;

/// A website as the profile's opener uses it (it adds `https://` unless the link contains
/// `http`): a host with a dot, optionally a scheme and a path; empty clears it.
pub fn parse_website(field: &str, text: &str) -> Result<String, ListingError> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(String::new());
    }
    if text.chars().count() > WEBSITE_MAX_CHARS {
        return Err(ListingError::out_of_range(
            field,
            format!("is longer than {WEBSITE_MAX_CHARS} characters"),
        ));
    }
    let without_scheme = text
        .strip_prefix("https://")
        .or_else(|| text.strip_prefix("http://"))
        .unwrap_or(text);
    let host = without_scheme.split(['/', '?', '#']).next().unwrap_or_default();
    let host_ok = host.contains('.')
        && !host.starts_with('.')
        && !host.ends_with('.')
        && host
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-' || c == ':');
    if !host_ok
        || text
            .chars()
            .any(|c| c.is_whitespace() || c.is_control() || c == '"' || c == '<' || c == '>')
    {
        return Err(ListingError::invalid(
            field,
            "must be a web address such as www.example.com or https://example.com/path",
        ));
    }
    Ok(text.to_owned())
}

#[cfg(test)]
mod tests;
