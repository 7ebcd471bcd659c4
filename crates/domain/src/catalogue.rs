//! Catalogue rows: what the operator loads into PostgreSQL and the search snapshot is built from.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::listing::{AccessibilitySet, LanguageSet, TimeZone, WeeklyHours};

/// A group or organisation that runs one or more clinic locations.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Organisation {
    pub id: i64,
    pub name: String,
    pub kind: OrganisationKind,
    /// When the row last changed, in microseconds since the Unix epoch (0 before it is stored).
    pub updated_at_micros: i64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OrganisationKind {
    Group,
    Organisation,
    /// A health plan: owns networks and insurance plans, runs no clinic.
    Payer,
}

impl OrganisationKind {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Group => "group",
            Self::Organisation => "organisation",
            Self::Payer => "payer",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "group" => Some(Self::Group),
            "organisation" => Some(Self::Organisation),
            "payer" => Some(Self::Payer),
            _ => None,
        }
    }
}

/// The six ways a clinic sees patients.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CareModalities {
    pub at_clinic: bool,
    pub at_work: bool,
    pub in_home: bool,
    pub phone: bool,
    pub text_chat: bool,
    #[serde(rename = "virtual")]
    pub video: bool,
}

impl CareModalities {
    /// Applies the spec's rule: a virtual location hides At-clinic and shows In-home.
    pub fn as_displayed(self, is_virtual: bool) -> Self {
        if is_virtual {
            Self {
                at_clinic: false,
                in_home: true,
                ..self
            }
        } else {
            self
        }
    }
}

/// A clinic location: a place (or a virtual service) where members enrol.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Location {
    pub id: i64,
    pub organisation_id: i64,
    /// The clinic's name, shown as the card title.
    pub name: String,
    pub location_name: String,
    pub address1: String,
    pub city: String,
    pub state: String,
    pub zip: String,
    pub lat: f64,
    pub lng: f64,
    /// True when the position was geocoded from the address (a ZIP centroid), not given.
    pub position_approximate: bool,
    pub phone: String,
    pub website: String,
    pub logo: String,
    pub description: String,
    pub accepting_new_patients: bool,
    pub is_virtual: bool,
    /// States a virtual location serves (empty for physical ones).
    pub virtual_states: Vec<String>,
    pub home_care: bool,
    pub modalities: CareModalities,
    pub service_type_codes: Vec<String>,
    /// Youngest and oldest pediatric patient accepted, in years, when pediatrics is offered.
    pub pediatric_min_age: Option<i16>,
    pub pediatric_max_age: Option<i16>,
    pub provider_portal_url: Option<String>,
    pub post_enrolment_redirect: Option<String>,
    /// Opening hours; `None` when the clinic has not given them. Profiles read them from
    /// PostgreSQL: the search snapshot does not keep them (a million weeks of hours).
    pub hours: Option<WeeklyHours>,
    /// The clinic's own time zone; `None` is its state's main zone ([`Location::time_zone`]).
    pub time_zone: Option<TimeZone>,
    /// Languages spoken at the clinic (by its staff; its clinicians list their own).
    pub languages: LanguageSet,
    /// Plan-Net accessibility codes.
    pub accessibility: AccessibilitySet,
    /// Whether the clinic offers visits by video or phone.
    pub telehealth: bool,
    /// Members the clinic takes at most (pending and active); `None` for no limit. Reaching it
    /// stops new enrolments by itself (`store::capacity`).
    pub panel_capacity: Option<u32>,
    /// When a provider last confirmed the whole listing (or edited it), or an operator imported
    /// it; `None` when never.
    #[serde(with = "instant_in_micros")]
    pub last_verified: Option<DateTime<Utc>>,
    /// When the row last changed, in microseconds since the Unix epoch (0 before it is stored).
    pub updated_at_micros: i64,
}

impl Location {
    pub fn offers_service(&self, code: &str) -> bool {
        self.service_type_codes.iter().any(|c| c == code)
    }

    /// The clinic's time zone: its own, else its state's main zone.
    pub fn time_zone(&self) -> TimeZone {
        self.time_zone.unwrap_or_else(|| TimeZone::for_state(&self.state))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Gender {
    F,
    M,
}

impl Gender {
    pub fn parse(text: &str) -> Option<Self> {
        match text.trim() {
            "F" | "f" => Some(Self::F),
            "M" | "m" => Some(Self::M),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::F => "F",
            Self::M => "M",
        }
    }
}

/// A clinician (doctor, nurse practitioner, ...) and the locations they work at.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Clinician {
    pub id: i64,
    pub npi: String,
    pub first_name: String,
    pub last_name: String,
    /// MD, DO, NP, PA, ...
    pub credentials: String,
    /// For example "Physician" or "Nurse Practitioner".
    pub category: String,
    pub speciality: String,
    pub gender: Gender,
    pub accepting_new_patients: bool,
    pub description: String,
    pub logo: String,
    pub location_ids: Vec<i64>,
    /// Languages the clinician speaks with patients.
    pub languages: LanguageSet,
    /// Whether the clinician sees patients by video or phone.
    pub telehealth: bool,
    /// When a provider last confirmed this listing (or edited it), or an operator imported it.
    #[serde(with = "instant_in_micros")]
    pub last_verified: Option<DateTime<Utc>>,
    /// When the row last changed, in microseconds since the Unix epoch (0 before it is stored).
    pub updated_at_micros: i64,
}

impl Clinician {
    pub fn display_name(&self) -> String {
        format!("{} {}", self.first_name, self.last_name)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EmployerStatus {
    Active,
    Inactive,
    Pending,
}

impl EmployerStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Active => "active",
            Self::Inactive => "inactive",
            Self::Pending => "pending",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "active" => Some(Self::Active),
            "inactive" => Some(Self::Inactive),
            "pending" => Some(Self::Pending),
            _ => None,
        }
    }
}

/// A partner employer. A non-empty network restricts its members' marketplace to those
/// organisations; an empty one leaves the whole marketplace open.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Employer {
    pub id: i64,
    pub company_name: String,
    /// The custom-URL alias (`/marketplace?company=alias`).
    pub alias: Option<String>,
    pub status: EmployerStatus,
    pub network_organisation_ids: Vec<i64>,
}

/// A marketplace category (virtual care, behavioural health, ...).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Category {
    pub id: i64,
    pub name: String,
    pub slug: String,
    pub position: i32,
}

/// A point-solution vendor.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Vendor {
    pub id: i64,
    pub company_name: String,
    pub category_id: i64,
    pub logo: String,
    pub description: String,
    pub website: String,
    pub contact_first_name: String,
    pub contact_last_name: String,
    pub contact_email: String,
    pub address1: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SolutionKind {
    VirtualNetwork,
    Solution,
}

impl SolutionKind {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::VirtualNetwork => "virtual_network",
            Self::Solution => "solution",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "virtual_network" => Some(Self::VirtualNetwork),
            "solution" => Some(Self::Solution),
            _ => None,
        }
    }
}

/// A marketplace solution or virtual network that clinics join at a rate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Solution {
    pub id: i64,
    pub name: String,
    pub kind: SolutionKind,
    pub category_id: i64,
    pub vendor_id: Option<i64>,
    pub logo: String,
    pub description: String,
    pub definition: String,
    pub website: String,
    /// Who approves participations: the primary contact's name, email and address.
    pub facilitator: Facilitator,
    /// The TPA fee per member per month, in hundredths of a percent (0 to 200, 0-2 %).
    pub tpa_basis_points: u32,
}

/// A solution facilitator's primary contact.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Facilitator {
    pub first_name: String,
    pub last_name: String,
    pub email: String,
    pub address1: String,
}

/// A rate group of a solution: what a participating clinic is paid per member per month.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SolutionRate {
    pub id: i64,
    pub solution_id: i64,
    pub group: String,
    pub base_rate_cents: i64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Payer {
    /// The payer id members type (for example "60054").
    pub id: String,
    pub name: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Plan {
    pub plan_id: String,
    pub name: String,
    pub payer_id: String,
    pub group_id: String,
}

/// An employer's group with a payer: the group number printed on its members' cards.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EmployerGroup {
    pub employer_id: i64,
    pub payer_id: String,
    pub group_number: String,
    pub plan_id: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Relation {
    #[serde(rename = "Self")]
    SelfSubscriber,
    Spouse,
    Dependent,
}

impl Relation {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::SelfSubscriber => "Self",
            Self::Spouse => "Spouse",
            Self::Dependent => "Dependent",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "Self" => Some(Self::SelfSubscriber),
            "Spouse" => Some(Self::Spouse),
            "Dependent" => Some(Self::Dependent),
            _ => None,
        }
    }
}

/// One line of a payer's member file: who is covered, under which plan and group.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RosterMember {
    pub payer_id: String,
    pub member_id: String,
    pub first_name: String,
    pub last_name: String,
    /// ISO date, YYYY-MM-DD.
    pub date_of_birth: String,
    pub plan_id: String,
    pub group_number: String,
    pub relation: Relation,
    pub subscriber_member_id: String,
    pub pediatric_covered: bool,
}

/// A provider insurance network: the organisations whose clinicians take part in it, managed
/// by an organisation (usually a payer), over a coverage area of states.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Network {
    pub id: i64,
    pub name: String,
    pub owner_organisation_id: Option<i64>,
    /// Two-letter state codes.
    pub coverage_states: Vec<String>,
    pub organisation_ids: Vec<i64>,
    pub updated_at_micros: i64,
}

/// A health insurance product sold on networks.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InsurancePlan {
    pub id: i64,
    pub name: String,
    /// A code of Plan-Net's InsuranceProductTypeCS: commppo, commhmo, medi, ...
    pub product_type: String,
    pub owned_by_organisation_id: Option<i64>,
    pub administered_by_organisation_id: Option<i64>,
    pub coverage_states: Vec<String>,
    pub network_ids: Vec<i64>,
    pub updated_at_micros: i64,
}

/// Everything the operator loads: the input of `indexer seed` and of a snapshot build.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Catalogue {
    pub organisations: Vec<Organisation>,
    pub locations: Vec<Location>,
    pub clinicians: Vec<Clinician>,
    pub employers: Vec<Employer>,
    pub categories: Vec<Category>,
    pub vendors: Vec<Vendor>,
    pub solutions: Vec<Solution>,
    pub solution_rates: Vec<SolutionRate>,
    pub payers: Vec<Payer>,
    pub plans: Vec<Plan>,
    pub employer_groups: Vec<EmployerGroup>,
    pub roster: Vec<RosterMember>,
    pub networks: Vec<Network>,
    pub insurance_plans: Vec<InsurancePlan>,
}

/// An optional instant as microseconds since the Unix epoch in compact formats (a snapshot's
/// postcard rows), as `updated_at_micros` is, and as RFC 3339 text in readable ones. chrono reads
/// its text through a borrowed string, and postcard's streaming reader keeps every borrowed
/// string in its scratch buffer until the end: a million dates overflowed it, and no server
/// could open a snapshot published at that size.
mod instant_in_micros {
    use super::*;

    pub fn serialize<S: Serializer>(at: &Option<DateTime<Utc>>, serializer: S) -> Result<S::Ok, S::Error> {
        if serializer.is_human_readable() {
            return at.serialize(serializer);
        }
        at.map(|at| at.timestamp_micros()).serialize(serializer)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<DateTime<Utc>>, D::Error> {
        if deserializer.is_human_readable() {
            return Option::<DateTime<Utc>>::deserialize(deserializer);
        }
        Option::<i64>::deserialize(deserializer)?
            .map(|micros| {
                DateTime::from_timestamp_micros(micros)
                    .ok_or_else(|| serde::de::Error::custom(format!("{micros} microseconds is not a date")))
            })
            .transpose()
    }
}
