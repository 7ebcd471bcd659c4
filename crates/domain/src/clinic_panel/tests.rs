use super::*;

fn day(text: &str) -> NaiveDate {
    NaiveDate::parse_from_str(text, "%Y-%m-%d").unwrap()
}

fn reason(text: &str) -> Reason {
    Reason::parse(text).unwrap()
}

fn pending(enrolled_on: &str) -> MembershipFacts {
    MembershipFacts {
        status: PanelStatus::Pending,
        enrolled_on: day(enrolled_on),
        active_from: None,
        closed_on: None,
    }
}

fn active(enrolled_on: &str, first_visit: &str) -> MembershipFacts {
    MembershipFacts {
        status: PanelStatus::Active,
        active_from: Some(day(first_visit)),
        ..pending(enrolled_on)
    }
}

const TODAY: &str = "2026-11-26";

#[test]
fn a_pending_membership_is_activated_on_a_first_visit_between_enrolment_and_today() {
    let membership = pending("2026-11-20");
    for first_visit in ["2026-11-20", "2026-11-24", TODAY] {
        let decision = PanelDecision::Activate {
            first_visit: day(first_visit),
        };
        assert_eq!(decide(&membership, &decision, day(TODAY)), Ok(PanelStatus::Active));
    }
    let tomorrow = PanelDecision::Activate {
        first_visit: day("2026-11-27"),
    };
    assert_eq!(
        decide(&membership, &tomorrow, day(TODAY)),
        Err(DecisionRefusal::FirstVisitInFuture)
    );
    let before = PanelDecision::Activate {
        first_visit: day("2026-11-19"),
    };
    let refusal = decide(&membership, &before, day(TODAY)).unwrap_err();
    assert_eq!(
        refusal,
        DecisionRefusal::FirstVisitBeforeEnrolment {
            enrolled_on: day("2026-11-20")
        }
    );
    assert_eq!(refusal.field(), Some("firstVisit"));
    assert_eq!(
        refusal.message("Maria Garcia"),
        "The first visit cannot be before Maria Garcia enrolled (Nov 20, 2026)"
    );
}

#[test]
fn only_a_pending_membership_is_declined_and_only_an_active_one_ended() {
    let decline = PanelDecision::Decline {
        reason: reason("We cannot take new patients under 2 years old"),
    };
    let end = PanelDecision::End {
        reason: reason("Moved away"),
        end_date: day(TODAY),
    };
    assert_eq!(
        decide(&pending("2026-11-01"), &decline, day(TODAY)),
        Ok(PanelStatus::Declined)
    );
    assert_eq!(
        decide(&active("2026-11-01", "2026-11-03"), &end, day(TODAY)),
        Ok(PanelStatus::Ended)
    );
    let not_yet = decide(&pending("2026-11-01"), &end, day(TODAY)).unwrap_err();
    assert_eq!(not_yet, DecisionRefusal::State(StateConflict::NotActiveYet));
    assert_eq!(
        not_yet.message("Maria Garcia"),
        "Maria Garcia has not had a first visit yet: activate or decline the enrolment instead."
    );
    let already = decide(&active("2026-11-01", "2026-11-03"), &decline, day(TODAY)).unwrap_err();
    assert_eq!(
        already.message("Maria Garcia"),
        "Maria Garcia is already an active member (first visit Nov 3, 2026)."
    );
    assert_eq!(already.field(), None);
}

#[test]
fn a_closed_membership_refuses_every_decision_saying_what_happened() {
    let closed = |status| MembershipFacts {
        status,
        closed_on: Some(day("2026-11-25")),
        ..pending("2026-11-01")
    };
    let activate = PanelDecision::Activate {
        first_visit: day(TODAY),
    };
    let cases = [
        (
            PanelStatus::Moved,
            "Maria Garcia moved to another clinic on Nov 25, 2026.",
        ),
        (
            PanelStatus::Declined,
            "Maria Garcia's enrolment was declined on Nov 25, 2026.",
        ),
        (PanelStatus::Ended, "Maria Garcia's membership ended on Nov 25, 2026."),
        (
            PanelStatus::Cancelled,
            "Maria Garcia was taken off their family's account on Nov 25, 2026.",
        ),
    ];
    for (status, message) in cases {
        let refusal = decide(&closed(status), &activate, day(TODAY)).unwrap_err();
        assert!(matches!(refusal, DecisionRefusal::State(_)), "{status}");
        assert_eq!(refusal.message("Maria Garcia"), message);
    }
}

#[test]
fn an_end_date_lies_between_the_first_visit_and_today() {
    let membership = active("2026-11-01", "2026-11-03");
    let end = |date: &str| PanelDecision::End {
        reason: reason("Moved away"),
        end_date: day(date),
    };
    assert_eq!(
        decide(&membership, &end("2026-11-03"), day(TODAY)),
        Ok(PanelStatus::Ended)
    );
    assert_eq!(
        decide(&membership, &end("2026-11-02"), day(TODAY)),
        Err(DecisionRefusal::EndBeforeFirstVisit {
            first_visit: day("2026-11-03")
        })
    );
    // A future date is refused before the state is looked at.
    assert_eq!(
        decide(&pending("2026-11-01"), &end("2026-12-01"), day(TODAY)),
        Err(DecisionRefusal::EndDateInFuture)
    );
}

#[test]
fn a_reason_is_one_to_five_hundred_characters_once_trimmed() {
    assert_eq!(Reason::parse("   "), Err(ValidationError::Required));
    assert_eq!(Reason::parse("  Moved away \n").unwrap().as_str(), "Moved away");
    let longest = "é".repeat(REASON_MAX_CHARS);
    assert_eq!(Reason::parse(&longest).unwrap().as_str(), longest);
    assert_eq!(
        Reason::parse(&format!("{longest}a")),
        Err(ValidationError::TooLong(REASON_MAX_CHARS))
    );
}

#[test]
fn months_parse_strictly_and_know_their_last_day() {
    let february = Month::parse("2028-02").unwrap();
    assert_eq!(february.first_day(), day("2028-02-01"));
    assert_eq!(february.last_day(), day("2028-02-29"));
    assert_eq!(Month::parse("2026-12").unwrap().last_day(), day("2026-12-31"));
    assert_eq!(february.to_string(), "2028-02");
    for bad in [
        "2026-13",
        "2026-00",
        "2026-1",
        "26-11",
        "2026-11-01",
        "2026/11",
        "",
        "abcd-ef",
        "+026-11",
    ] {
        assert_eq!(Month::parse(bad), None, "{bad}");
    }
    assert_eq!(Month::of(day("2026-11-26")), Month::parse("2026-11").unwrap());
}

#[test]
fn days_active_count_both_ends_within_the_month_and_up_to_today() {
    let november = Month::parse("2026-11").unwrap();
    let later = day("2027-01-15");
    // The whole month.
    assert_eq!(days_active(november, day("2026-10-01"), None, later), 30);
    // From the first visit, to the end date, both included.
    assert_eq!(
        days_active(november, day("2026-11-03"), Some(day("2026-11-03")), later),
        1
    );
    assert_eq!(
        days_active(november, day("2026-11-03"), Some(day("2026-11-10")), later),
        8
    );
    assert_eq!(
        days_active(november, day("2026-10-20"), Some(day("2026-12-10")), later),
        30
    );
    // The current month counts the days so far.
    assert_eq!(days_active(november, day("2026-11-03"), None, day("2026-11-26")), 24);
    // Periods that do not meet the month.
    assert_eq!(days_active(november, day("2026-12-01"), None, later), 0);
    assert_eq!(
        days_active(november, day("2026-09-01"), Some(day("2026-10-31")), later),
        0
    );
    // A brute-force count agrees for every period within two months around November.
    let days: Vec<NaiveDate> = (0..75)
        .map(|offset| day("2026-10-01") + chrono::Days::new(offset))
        .collect();
    for (index, from) in days.iter().enumerate() {
        for until in days[index..].iter().step_by(7) {
            let expected = days
                .iter()
                .filter(|d| d.month() == 11 && *d >= from && *d <= until && **d <= day("2026-11-26"))
                .count();
            assert_eq!(
                days_active(november, *from, Some(*until), day("2026-11-26")) as usize,
                expected,
                "{from} to {until}"
            );
        }
    }
}

#[test]
fn csv_fields_are_quoted_and_never_run_as_formulas() {
    assert_eq!(csv_field("Garcia"), "\"Garcia\"");
    assert_eq!(csv_field("Doe, Jane"), "\"Doe, Jane\"");
    assert_eq!(csv_field("O\"Brien"), "\"O\"\"Brien\"");
    assert_eq!(csv_field("=HYPERLINK(\"x\")"), "\"'=HYPERLINK(\"\"x\"\")\"");
    for lead in ["+1", "-2", "@SUM(A1)", "\tTab", "\rReturn"] {
        assert!(csv_field(lead).starts_with("\"'"), "{lead:?}");
    }
    // Only the first character matters: a dash inside a member id is data.
    assert_eq!(csv_field("123-456789"), "\"123-456789\"");
    assert_eq!(csv_field(""), "\"\"");
    assert_eq!(csv_record(["a", "b,c"]), "\"a\",\"b,c\"\r\n");
}

#[test]
fn statuses_fall_into_the_three_tabs() {
    assert_eq!(PanelStatus::Pending.tab(), PanelTab::New);
    assert_eq!(PanelStatus::Active.tab(), PanelTab::Active);
    for status in [
        PanelStatus::Declined,
        PanelStatus::Ended,
        PanelStatus::Moved,
        PanelStatus::Cancelled,
    ] {
        assert_eq!(status.tab(), PanelTab::Past);
        assert!(!status.is_live());
    }
    assert_eq!(PanelTab::New.as_str(), "pending");
    assert_eq!("past".parse(), Ok(PanelTab::Past));
}
