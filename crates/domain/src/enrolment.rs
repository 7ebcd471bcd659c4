//! Choosing a provider: the rules that decide whether a member may enrol with (or move a
//! pending membership to) a clinic, as one pure function over what the server read. Messages
//! are the spec's texts (marketplace spec, sections 4 and 8; `docs/enrolment-contract.md`).

use chrono::{Datelike, NaiveDate};

use crate::accounts::{MembershipStatus, NextStep, one_year_after};
use crate::catalogue::EmployerStatus;

/// Members younger than this on the day they enrol need a clinic with pediatric service.
pub const ADULT_AGE: u32 = 18;

/// The member acted on: the subscriber, or the dependent a subscriber enrols.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemberFacts {
    pub next_step: NextStep,
    pub eligibility: Option<MembershipStatus>,
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

/// The membership a successful choice leaves: pending the first visit, valid for a year.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Membership {
    pub location_id: i64,
    pub next_step: NextStep,
    pub subscription: MembershipStatus,
    pub expire: NaiveDate,
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
    let is_change = member.subscription == Some(MembershipStatus::Pending) && member.next_step != NextStep::SelectDpc;
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
    let membership = Membership {
        location_id: location.location_id,
        next_step: if member.eligibility == Some(MembershipStatus::Active) {
            NextStep::Complete
        } else {
            NextStep::ConfirmPlan
        },
        subscription: MembershipStatus::Pending,
        expire: one_year_after(today),
    };
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
mod tests {
    use super::*;

    fn day(text: &str) -> NaiveDate {
        NaiveDate::parse_from_str(text, "%Y-%m-%d").unwrap()
    }

    const TODAY: &str = "2026-11-21";

    /// Eligible, no provider yet: the usual member choosing a clinic.
    fn adult() -> MemberFacts {
        MemberFacts {
            next_step: NextStep::SelectDpc,
            eligibility: Some(MembershipStatus::Active),
            subscription: None,
            date_of_birth: Some(day("1985-04-12")),
            location_id: None,
            clinic_name: None,
        }
    }

    /// Enrolled at location 1, membership pending the first visit.
    fn pending_at_lodo() -> MemberFacts {
        MemberFacts {
            next_step: NextStep::Complete,
            subscription: Some(MembershipStatus::Pending),
            location_id: Some(1),
            clinic_name: Some("LoDo Clinic".into()),
            ..adult()
        }
    }

    fn child(date_of_birth: &str) -> MemberFacts {
        MemberFacts {
            date_of_birth: Some(day(date_of_birth)),
            ..adult()
        }
    }

    fn clinic(location_id: i64) -> LocationFacts {
        LocationFacts {
            location_id,
            accepting_new_patients: true,
            pediatrics: Some(PediatricService {
                min_age: Some(0),
                max_age: Some(17),
            }),
        }
    }

    fn adults_only(location_id: i64) -> LocationFacts {
        LocationFacts {
            pediatrics: None,
            ..clinic(location_id)
        }
    }

    fn choose(member: &MemberFacts, target: Target, change_confirmed: bool) -> Result<Decision, Refusal> {
        decide(
            member,
            Some(EmployerStatus::Active),
            target,
            change_confirmed,
            day(TODAY),
        )
    }

    fn pending_membership(location_id: i64, next_step: NextStep) -> Membership {
        Membership {
            location_id,
            next_step,
            subscription: MembershipStatus::Pending,
            expire: day("2027-11-21"),
        }
    }

    #[test]
    fn a_member_without_an_employer_is_refused() {
        let refusal = decide(&adult(), None, Target::Location(clinic(1)), false, day(TODAY)).unwrap_err();
        assert_eq!(refusal, Refusal::EmployerInactive);
        assert_eq!(
            refusal.to_string(),
            "Oops, your employer does not offer this benefit yet"
        );
        assert_eq!(refusal.code(), "employer_inactive");
    }

    #[test]
    fn an_inactive_or_pending_employer_is_refused_before_anything_else() {
        for status in [EmployerStatus::Inactive, EmployerStatus::Pending] {
            let member = MemberFacts {
                subscription: Some(MembershipStatus::Active),
                ..adult()
            };
            assert_eq!(
                decide(&member, Some(status), Target::Unknown, false, day(TODAY)),
                Err(Refusal::EmployerInactive)
            );
        }
    }

    #[test]
    fn an_active_subscription_is_refused_naming_the_current_clinic() {
        let member = MemberFacts {
            subscription: Some(MembershipStatus::Active),
            ..pending_at_lodo()
        };
        let refusal = choose(&member, Target::Location(clinic(5)), true).unwrap_err();
        assert_eq!(
            refusal,
            Refusal::ActiveMembership {
                clinic: "LoDo Clinic".into()
            }
        );
        assert_eq!(
            refusal.to_string(),
            "You have an active membership with LoDo Clinic. Please contact us through our support email for further assistance."
        );
        assert_eq!(refusal.code(), "active_membership");
    }

    #[test]
    fn an_active_subscription_at_a_clinic_without_a_name_says_your_current_provider() {
        let member = MemberFacts {
            subscription: Some(MembershipStatus::Active),
            clinic_name: None,
            ..pending_at_lodo()
        };
        let refusal = choose(&member, Target::Location(clinic(5)), true).unwrap_err();
        assert_eq!(
            refusal.to_string(),
            "You have an active membership with your current provider. Please contact us through our support email for further assistance."
        );
        assert_eq!(refusal.code(), "active_membership");
    }

    #[test]
    fn an_active_subscription_is_refused_before_the_card_is_looked_at() {
        let member = MemberFacts {
            subscription: Some(MembershipStatus::Active),
            ..pending_at_lodo()
        };
        for target in [Target::NotALocation, Target::Unknown] {
            assert_eq!(
                choose(&member, target, false),
                Err(Refusal::ActiveMembership {
                    clinic: "LoDo Clinic".into()
                }),
                "{target:?}"
            );
        }
    }

    #[test]
    fn a_card_that_is_not_a_location_is_refused() {
        let refusal = choose(&adult(), Target::NotALocation, false).unwrap_err();
        assert_eq!(refusal, Refusal::NotALocation);
        assert_eq!(
            refusal.to_string(),
            "Oops. Seems like you selected a non-provider card."
        );
        assert_eq!(refusal.code(), "not_a_location");
    }

    #[test]
    fn an_unknown_provider_and_location_is_not_found() {
        let refusal = choose(&adult(), Target::Unknown, false).unwrap_err();
        assert_eq!(refusal, Refusal::ProviderNotFound);
        assert_eq!(refusal.to_string(), "Provider not found");
        assert_eq!(refusal.code(), "not_found");
    }

    #[test]
    fn a_pending_membership_moves_only_when_the_member_confirms() {
        let refusal = choose(&pending_at_lodo(), Target::Location(clinic(5)), false).unwrap_err();
        assert_eq!(refusal.to_string(), "You have a pending membership with LoDo Clinic");
        assert_eq!(refusal.code(), "change_needs_confirmation");
    }

    #[test]
    fn a_confirmed_change_moves_the_pending_membership_for_another_year() {
        let decision = choose(&pending_at_lodo(), Target::Location(clinic(5)), true).unwrap();
        assert_eq!(
            decision,
            Decision::ProviderChange(pending_membership(5, NextStep::Complete))
        );
        assert!(decision.changed());
        assert_eq!(
            decision.message("Chelsea Clinic"),
            "You now have a pending membership with Chelsea Clinic"
        );
    }

    #[test]
    fn a_pending_member_still_confirming_the_plan_changes_too() {
        let member = MemberFacts {
            next_step: NextStep::ConfirmPlan,
            eligibility: None,
            ..pending_at_lodo()
        };
        assert_eq!(
            choose(&member, Target::Location(clinic(5)), false),
            Err(Refusal::ChangeNeedsConfirmation {
                clinic: "LoDo Clinic".into()
            })
        );
        assert_eq!(
            choose(&member, Target::Location(clinic(5)), true),
            Ok(Decision::ProviderChange(pending_membership(5, NextStep::ConfirmPlan)))
        );
    }

    #[test]
    fn a_change_to_the_same_location_changes_nothing() {
        assert_eq!(
            choose(&pending_at_lodo(), Target::Location(clinic(1)), true),
            Ok(Decision::Unchanged)
        );
        let closed = LocationFacts {
            accepting_new_patients: false,
            ..clinic(1)
        };
        assert_eq!(
            choose(&pending_at_lodo(), Target::Location(closed), true),
            Ok(Decision::Unchanged),
            "a member keeps the place they have"
        );
    }

    #[test]
    fn a_pending_subscription_still_selecting_a_clinic_enrols_without_confirmation() {
        let member = MemberFacts {
            next_step: NextStep::SelectDpc,
            ..pending_at_lodo()
        };
        let decision = choose(&member, Target::Location(clinic(5)), false).unwrap();
        assert_eq!(
            decision,
            Decision::NewEnrolment(pending_membership(5, NextStep::Complete)),
            "nextStep selectDPC is not a provider change, so no confirmation is asked"
        );
        assert!(!decision.changed());
    }

    #[test]
    fn a_member_without_a_pending_or_active_subscription_is_enrolled() {
        for subscription in [None, Some(MembershipStatus::Inactive)] {
            let member = MemberFacts {
                subscription,
                ..adult()
            };
            let decision = choose(&member, Target::Location(clinic(1)), false).unwrap();
            assert_eq!(
                decision,
                Decision::NewEnrolment(pending_membership(1, NextStep::Complete)),
                "{subscription:?}"
            );
            assert!(!decision.changed());
            assert_eq!(decision.message("LoDo"), "You have been enrolled with LoDo");
        }
    }

    #[test]
    fn a_complete_member_without_a_pending_membership_is_already_enrolled() {
        for subscription in [None, Some(MembershipStatus::Inactive)] {
            let member = MemberFacts {
                next_step: NextStep::Complete,
                subscription,
                ..adult()
            };
            let refusal = choose(&member, Target::Location(clinic(1)), true).unwrap_err();
            assert_eq!(refusal.to_string(), "You're already enrolled with a provider");
            assert_eq!(refusal.code(), "already_enrolled");
        }
    }

    #[test]
    fn a_location_not_accepting_new_patients_is_refused() {
        let closed = LocationFacts {
            accepting_new_patients: false,
            ..clinic(2)
        };
        let refusal = choose(&adult(), Target::Location(closed), false).unwrap_err();
        assert_eq!(
            refusal.to_string(),
            "This location is not accepting new patients at the moment"
        );
        assert_eq!(refusal.code(), "not_accepting");
    }

    #[test]
    fn a_minor_needs_a_clinic_with_pediatric_service() {
        let refusal = choose(&child("2016-06-01"), Target::Location(adults_only(3)), false).unwrap_err();
        assert_eq!(
            refusal.to_string(),
            "This clinic does not offer pediatric services. Please find another DPC clinic for this dependent"
        );
        assert_eq!(refusal.code(), "pediatric_not_offered");
    }

    #[test]
    fn a_minor_outside_the_pediatric_ages_is_refused() {
        let toddlers_excluded = LocationFacts {
            pediatrics: Some(PediatricService {
                min_age: Some(2),
                max_age: Some(12),
            }),
            ..clinic(1)
        };
        for date_of_birth in ["2026-01-01", "2013-06-01"] {
            let refusal = choose(&child(date_of_birth), Target::Location(toddlers_excluded), false).unwrap_err();
            assert_eq!(
                refusal.to_string(),
                "This clinic does not accept pediatrics patients of this age. Please find another DPC clinic for this dependent"
            );
            assert_eq!(refusal.code(), "pediatric_age");
        }
    }

    #[test]
    fn a_minor_within_the_pediatric_ages_is_enrolled() {
        assert_eq!(
            choose(&child("2016-06-01"), Target::Location(clinic(1)), false),
            Ok(Decision::NewEnrolment(pending_membership(1, NextStep::Complete)))
        );
        let unbounded = LocationFacts {
            pediatrics: Some(PediatricService {
                min_age: None,
                max_age: None,
            }),
            ..clinic(1)
        };
        assert!(choose(&child("2026-11-01"), Target::Location(unbounded), false).is_ok());
    }

    #[test]
    fn an_adult_enrols_at_a_clinic_without_pediatric_service() {
        let decision = choose(&adult(), Target::Location(adults_only(3)), false).unwrap();
        assert_eq!(
            decision,
            Decision::NewEnrolment(pending_membership(3, NextStep::Complete))
        );
        assert!(!decision.changed());
        assert_eq!(decision.message("Highlands"), "You have been enrolled with Highlands");
        let unknown_age = MemberFacts {
            date_of_birth: None,
            ..adult()
        };
        assert!(
            choose(&unknown_age, Target::Location(adults_only(3)), false).is_ok(),
            "a member who has not given a date of birth yet is not treated as a minor"
        );
    }

    #[test]
    fn next_step_is_complete_only_when_eligibility_is_active() {
        for (eligibility, expected) in [
            (Some(MembershipStatus::Active), NextStep::Complete),
            (Some(MembershipStatus::Pending), NextStep::ConfirmPlan),
            (Some(MembershipStatus::Inactive), NextStep::ConfirmPlan),
            (None, NextStep::ConfirmPlan),
        ] {
            let member = MemberFacts {
                eligibility,
                next_step: NextStep::ConfirmPlan,
                ..adult()
            };
            match choose(&member, Target::Location(clinic(1)), false) {
                Ok(Decision::NewEnrolment(membership)) => assert_eq!(membership.next_step, expected),
                other => panic!("{eligibility:?}: {other:?}"),
            }
        }
    }

    #[test]
    fn a_member_who_chose_before_sign_up_may_choose_again_until_enrolled() {
        let signed_up_with_clinic = MemberFacts {
            next_step: NextStep::ConfirmPlan,
            eligibility: None,
            location_id: Some(1),
            clinic_name: Some("LoDo Clinic".into()),
            ..adult()
        };
        assert_eq!(
            choose(&signed_up_with_clinic, Target::Location(clinic(5)), false),
            Ok(Decision::NewEnrolment(pending_membership(5, NextStep::ConfirmPlan)))
        );
    }

    #[test]
    fn a_dependent_is_judged_on_their_own_state() {
        // The subscriber is enrolled; their child, choosing for the first time, is not.
        let subscriber = pending_at_lodo();
        let dependent = child("2019-08-23");
        assert!(matches!(
            choose(&subscriber, Target::Location(clinic(1)), false),
            Err(Refusal::ChangeNeedsConfirmation { .. })
        ));
        assert_eq!(
            choose(&dependent, Target::Location(clinic(1)), false),
            Ok(Decision::NewEnrolment(pending_membership(1, NextStep::Complete)))
        );
        assert_eq!(
            choose(&dependent, Target::Location(adults_only(3)), false),
            Err(Refusal::PediatricNotOffered),
            "the dependent's age, not the subscriber's"
        );
    }

    #[test]
    fn the_subscription_expires_a_year_from_today_and_28_february_for_a_leap_day() {
        let on_leap_day = decide(
            &adult(),
            Some(EmployerStatus::Active),
            Target::Location(clinic(1)),
            false,
            day("2028-02-29"),
        );
        match on_leap_day {
            Ok(Decision::NewEnrolment(membership)) => assert_eq!(membership.expire, day("2029-02-28")),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn ages_count_full_years_across_birthdays_and_leap_days() {
        assert_eq!(age_on(day("2008-11-21"), day("2026-11-21")), 18, "on the birthday");
        assert_eq!(age_on(day("2008-11-22"), day("2026-11-21")), 17, "the day before");
        assert_eq!(age_on(day("2008-02-29"), day("2026-02-28")), 17);
        assert_eq!(age_on(day("2008-02-29"), day("2026-03-01")), 18);
        assert_eq!(age_on(day("2008-02-29"), day("2028-02-29")), 20);
        assert_eq!(age_on(day("2026-11-21"), day("2026-11-21")), 0);
        assert_eq!(
            age_on(day("2027-01-01"), day("2026-11-21")),
            0,
            "a future date is no age"
        );
    }

    #[test]
    fn a_leap_day_child_turns_adult_on_1_march_in_a_common_year() {
        let member = child("2008-02-29");
        let adults_clinic = Target::Location(adults_only(3));
        let on_28_february = decide(
            &member,
            Some(EmployerStatus::Active),
            adults_clinic,
            false,
            day("2026-02-28"),
        );
        assert_eq!(on_28_february, Err(Refusal::PediatricNotOffered));
        let on_1_march = decide(
            &member,
            Some(EmployerStatus::Active),
            adults_clinic,
            false,
            day("2026-03-01"),
        );
        assert!(on_1_march.is_ok(), "{on_1_march:?}");
    }

    #[test]
    fn pediatric_fit_answers_whether_a_dependent_could_join_a_clinic() {
        let today = day(TODAY);
        assert!(pediatric_fit(Some(day("2016-06-01")), &clinic(1), today));
        assert!(!pediatric_fit(Some(day("2016-06-01")), &adults_only(3), today));
        assert!(pediatric_fit(Some(day("1984-09-30")), &adults_only(3), today));
        assert!(pediatric_fit(None, &adults_only(3), today));
    }
}
