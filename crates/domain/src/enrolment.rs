//! Choosing a provider: the rules that decide whether a member may enrol with (or move a
//! pending membership to) a clinic, as one pure function over what the server read. Messages
//! are the spec's texts (marketplace spec, sections 4 and 8; `docs/enrolment-contract.md`).

use chrono::{Datelike, NaiveDate};

use crate::catalogue::EmployerStatus;
use crate::membership::{EligibilityStatus, Membership, MembershipStatus, NextStep, is_provider_change};

/// Members younger than this on the day they enrol need a clinic with pediatric service.
pub const ADULT_AGE: u32 = 18;

/// The member acted on: the subscriber, or the dependent a subscriber enrols.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemberFacts {
    pub next_step: NextStep,
    pub eligibility: Option<EligibilityStatus>,
    pub subscription: Option<MembershipStatus>,
    pub date_of_birth: Option<NaiveDate>,
    /// The location currently chosen, if any.
    pub location_id: Option<i64>,
    /// The name of that location, for the refusals that mention it.
    pub clinic_name: Option<String>,
}

/// Pediatric service at a location: the location lists the pediatrics service type, and may
/// bound the ages it takes (inclusive; `None` is no bound).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PediatricService {
    pub min_age: Option<u32>,
    pub max_age: Option<u32>,
}

impl PediatricService {
    pub fn admits(&self, age: u32) -> bool {
        self.min_age.is_none_or(|min| age >= min) && self.max_age.is_none_or(|max| age <= max)
    }
}

/// A location of the provider asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LocationFacts {
    pub location_id: i64,
    pub accepting_new_patients: bool,
    /// `None` when the location does not offer pediatrics at all.
    pub pediatrics: Option<PediatricService>,
}

/// What the requested `providerId` and `locationId` turned out to be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// The location exists and belongs to the provider.
    Location(LocationFacts),
    /// No location was named, or the pair is not a location of that provider (a clinician,
    /// vendor or solution card).
    NotALocation,
    /// Neither the provider nor the location exists.
    Unknown,
}

/// What a choice does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    /// A first provider for this membership.
    NewEnrolment(Membership),
    /// A pending membership moved to another location, as the member confirmed.
    ProviderChange(Membership),
    /// The member asked for the location they already have: nothing to write.
    Unchanged,
}

impl Decision {
    /// The success message; `clinic` is the name of the location chosen.
    pub fn message(&self, clinic: &str) -> String {
        match self {
            Self::NewEnrolment(_) => format!("You have been enrolled with {clinic}"),
            Self::ProviderChange(_) => format!("You now have a pending membership with {clinic}"),
            Self::Unchanged => format!("You already have a pending membership with {clinic}"),
        }
    }

    pub fn changed(&self) -> bool {
        matches!(self, Self::ProviderChange(_))
    }
}

/// Why a choice is refused. `Display` gives the text shown to the member.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// The member has no employer, or it does not offer the benefit (inactive or pending).
    #[error("Oops, your employer does not offer this benefit yet")]
    EmployerInactive,
    /// The subscription is active: only support can change it.
    #[error(
        "You have an active membership with {clinic}. Please contact us through our support email for further assistance."
    )]
    ActiveMembership { clinic: String },
    /// The card chosen is not a location of the provider.
    #[error("Oops. Seems like you selected a non-provider card.")]
    NotALocation,
    /// Neither the provider nor the location exists.
    #[error("Provider not found")]
    ProviderNotFound,
    /// A provider change the member has not confirmed yet.
    #[error("You have a pending membership with {clinic}")]
    ChangeNeedsConfirmation { clinic: String },
    /// Enrolled, with no pending membership that could move.
    #[error("You're already enrolled with a provider")]
    AlreadyEnrolled,
    #[error("This location is not accepting new patients at the moment")]
    NotAccepting,
    /// A minor, and the location has no pediatric service.
    #[error("This clinic does not offer pediatric services. Please find another DPC clinic for this dependent")]
    PediatricNotOffered,
    /// A minor outside the location's pediatric ages.
    #[error(
        "This clinic does not accept pediatrics patients of this age. Please find another DPC clinic for this dependent"
    )]
    PediatricAge,
}

impl Refusal {
    /// A stable snake_case code for the API's error body.
    pub fn code(&self) -> &'static str {
        match self {
            Self::EmployerInactive => "employer_inactive",
            Self::ActiveMembership { .. } => "active_membership",
            Self::NotALocation => "not_a_location",
            Self::ProviderNotFound => "not_found",
            Self::ChangeNeedsConfirmation { .. } => "change_needs_confirmation",
            Self::AlreadyEnrolled => "already_enrolled",
            Self::NotAccepting => "not_accepting",
            Self::PediatricNotOffered => "pediatric_not_offered",
            Self::PediatricAge => "pediatric_age",
        }
    }
}

/// Said of a member whose current location has no name to show (it left the catalogue).
const UNNAMED_CLINIC: &str = "your current provider";

/// Decides a member's choice of `target`. `change_confirmed` is the member's answer to the
/// change-provider confirmation. The checks run in the contract's order, so the first rule a
/// member breaks is the one they are told about.
pub fn decide(
    member: &MemberFacts,
    employer: Option<EmployerStatus>,
    target: Target,
    change_confirmed: bool,
    today: NaiveDate,
) -> Result<Decision, Refusal> {
    let clinic = || member.clinic_name.clone().unwrap_or_else(|| UNNAMED_CLINIC.to_owned());
    if employer != Some(EmployerStatus::Active) {
        return Err(Refusal::EmployerInactive);
    }
    if member.subscription == Some(MembershipStatus::Active) {
        return Err(Refusal::ActiveMembership { clinic: clinic() });
    }
    let location = match target {
        Target::Location(location) => location,
        Target::NotALocation => return Err(Refusal::NotALocation),
        Target::Unknown => return Err(Refusal::ProviderNotFound),
    };
    let is_change = is_provider_change(member.next_step, member.subscription);
    if is_change && !change_confirmed {
        return Err(Refusal::ChangeNeedsConfirmation { clinic: clinic() });
    }
    if is_change && member.location_id == Some(location.location_id) {
        return Ok(Decision::Unchanged);
    }
    if !is_change && member.next_step == NextStep::Complete {
        return Err(Refusal::AlreadyEnrolled);
    }
    if !location.accepting_new_patients {
        return Err(Refusal::NotAccepting);
    }
    if let Some(age) = member.date_of_birth.map(|dob| age_on(dob, today))
        && age < ADULT_AGE
    {
        match location.pediatrics {
            None => return Err(Refusal::PediatricNotOffered),
            Some(service) if !service.admits(age) => return Err(Refusal::PediatricAge),
            Some(_) => {}
        }
    }
    let membership = Membership::chosen(location.location_id, member.eligibility, today);
    Ok(if is_change {
        Decision::ProviderChange(membership)
    } else {
        Decision::NewEnrolment(membership)
    })
}

/// Whether a member of this age may be seen at a location: adults anywhere, minors only where
/// the location's pediatric service takes their age. The age rules of [`decide`], for
/// answering "could this dependent enrol at the subscriber's clinic?" before they try.
pub fn pediatric_fit(date_of_birth: Option<NaiveDate>, location: &LocationFacts, today: NaiveDate) -> bool {
    match date_of_birth.map(|dob| age_on(dob, today)) {
        Some(age) if age < ADULT_AGE => location.pediatrics.is_some_and(|service| service.admits(age)),
        _ => true,
    }
}

/// Full years between `date_of_birth` and `today`. Someone born on 29 February becomes a
/// year older on 1 March in a common year.
pub fn age_on(date_of_birth: NaiveDate, today: NaiveDate) -> u32 {
    let years = today.year() - date_of_birth.year();
    let birthday_reached = (today.month(), today.day()) >= (date_of_birth.month(), date_of_birth.day());
    let age = if birthday_reached { years } else { years - 1 };
    u32::try_from(age).unwrap_or(0)
}

#[cfg(test)]
mod tests;
