//! One test per rule of [`super::decide`].

use super::*;

fn day(text: &str) -> NaiveDate {
    NaiveDate::parse_from_str(text, "%Y-%m-%d").unwrap()
}

const TODAY: &str = "2026-11-21";

/// Eligible, no provider yet: the usual member choosing a clinic.
fn adult() -> MemberFacts {
    MemberFacts {
        next_step: NextStep::SelectDpc,
        eligibility: Some(EligibilityStatus::Active),
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
        (Some(EligibilityStatus::Active), NextStep::Complete),
        (Some(EligibilityStatus::Pending), NextStep::ConfirmPlan),
        (Some(EligibilityStatus::Inactive), NextStep::ConfirmPlan),
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
