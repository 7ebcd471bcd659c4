//! The clinic panel (docs/clinic-panel-contract.md): a membership's life at a clinic, the
//! decisions a clinic makes on it (activate on the first visit, decline, end), the monthly
//! roster's arithmetic and its CSV. Pure: the store reads the facts, asks here, and writes.

use chrono::{Datelike, Months, NaiveDate};

use crate::accounts::ValidationError;
use crate::membership::text_enum;

text_enum! {
    /// The status of one membership at a clinic (a row of `memberships`).
    pub enum PanelStatus {
        /// Enrolled, waiting for the first visit.
        Pending = "pending",
        /// The first visit happened.
        Active = "active",
        /// The clinic declined the enrolment.
        Declined = "declined",
        /// The clinic ended an active membership.
        Ended = "ended",
        /// The member moved a pending membership to another organisation.
        Moved = "moved",
        /// The member was taken off their family's account.
        Cancelled = "cancelled",
    }
}

text_enum! {
    /// The panel's tabs: New (pending), Active, Past (every closed status).
    pub enum PanelTab {
        New = "pending",
        Active = "active",
        Past = "past",
    }
}

impl PanelStatus {
    /// Whether the membership still counts: pending or active.
    pub fn is_live(self) -> bool {
        matches!(self, Self::Pending | Self::Active)
    }

    pub fn tab(self) -> PanelTab {
        match self {
            Self::Pending => PanelTab::New,
            Self::Active => PanelTab::Active,
            Self::Declined | Self::Ended | Self::Moved | Self::Cancelled => PanelTab::Past,
        }
    }
}

/// The longest decline or end reason, in characters.
pub const REASON_MAX_CHARS: usize = 500;

/// A decline or end reason the member reads: 1 to 500 characters once trimmed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reason(String);

impl Reason {
    pub fn parse(input: &str) -> Result<Self, ValidationError> {
        let text = input.trim();
        if text.is_empty() {
            return Err(ValidationError::Required);
        }
        if text.chars().count() > REASON_MAX_CHARS {
            return Err(ValidationError::TooLong(REASON_MAX_CHARS));
        }
        Ok(Self(text.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// What a clinic (or an operator) decides about a membership.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PanelDecision {
    /// The first visit happened on this day: pending → active.
    Activate { first_visit: NaiveDate },
    /// pending → declined; the member chooses a clinic again.
    Decline { reason: Reason },
    /// active → ended; `end_date` is the membership's last day.
    End { reason: Reason, end_date: NaiveDate },
}

impl PanelDecision {
    /// The status the decision leads to.
    pub fn target(&self) -> PanelStatus {
        match self {
            Self::Activate { .. } => PanelStatus::Active,
            Self::Decline { .. } => PanelStatus::Declined,
            Self::End { .. } => PanelStatus::Ended,
        }
    }

    /// The audit row's `kind` (`enrolment_events`).
    pub fn event_kind(&self) -> &'static str {
        match self {
            Self::Activate { .. } => "activated",
            Self::Decline { .. } => "declined",
            Self::End { .. } => "ended",
        }
    }

    /// The day the decision takes effect (first visit or last day), when it has one.
    pub fn effective_on(&self) -> Option<NaiveDate> {
        match self {
            Self::Activate { first_visit } => Some(*first_visit),
            Self::Decline { .. } => None,
            Self::End { end_date, .. } => Some(*end_date),
        }
    }

    pub fn reason(&self) -> Option<&Reason> {
        match self {
            Self::Activate { .. } => None,
            Self::Decline { reason } | Self::End { reason, .. } => Some(reason),
        }
    }
}

/// What a decision needs to know of the membership it is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MembershipFacts {
    pub status: PanelStatus,
    /// The day the member enrolled (UTC).
    pub enrolled_on: NaiveDate,
    /// The first visit, once active.
    pub active_from: Option<NaiveDate>,
    /// The day it was closed (declined, ended, moved, cancelled).
    pub closed_on: Option<NaiveDate>,
}

/// Why a decision is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DecisionRefusal {
    FirstVisitInFuture,
    EndDateInFuture,
    FirstVisitBeforeEnrolment {
        enrolled_on: NaiveDate,
    },
    EndBeforeFirstVisit {
        first_visit: NaiveDate,
    },
    /// The membership's status no longer allows the decision (409).
    State(StateConflict),
}

/// The state a refused decision found, to tell the clinic what happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StateConflict {
    AlreadyActive {
        first_visit: Option<NaiveDate>,
    },
    Declined {
        on: Option<NaiveDate>,
    },
    Ended {
        on: Option<NaiveDate>,
    },
    Moved {
        on: Option<NaiveDate>,
    },
    Cancelled {
        on: Option<NaiveDate>,
    },
    /// Ending a membership that never became active.
    NotActiveYet,
}

impl DecisionRefusal {
    /// The body field the refusal is about, for the 400s.
    pub fn field(&self) -> Option<&'static str> {
        match self {
            Self::FirstVisitInFuture | Self::FirstVisitBeforeEnrolment { .. } => Some("firstVisit"),
            Self::EndDateInFuture | Self::EndBeforeFirstVisit { .. } => Some("endDate"),
            Self::State(_) => None,
        }
    }

    /// The text shown to the clinic; `name` is the member's full name.
    pub fn message(&self, name: &str) -> String {
        match self {
            Self::FirstVisitInFuture => "The first visit cannot be in the future".to_owned(),
            Self::EndDateInFuture => "The end date cannot be in the future".to_owned(),
            Self::FirstVisitBeforeEnrolment { enrolled_on } => {
                format!(
                    "The first visit cannot be before {name} enrolled ({})",
                    long_date(*enrolled_on)
                )
            }
            Self::EndBeforeFirstVisit { first_visit } => format!(
                "The end date cannot be before the first visit ({})",
                long_date(*first_visit)
            ),
            Self::State(conflict) => conflict.message(name),
        }
    }
}

impl StateConflict {
    pub fn message(&self, name: &str) -> String {
        let on = |day: &Option<NaiveDate>| day.map(|day| format!(" on {}", long_date(day))).unwrap_or_default();
        match self {
            Self::AlreadyActive { first_visit } => match first_visit {
                Some(day) => format!("{name} is already an active member (first visit {}).", long_date(*day)),
                None => format!("{name} is already an active member."),
            },
            Self::Declined { on: day } => format!("{name}'s enrolment was declined{}.", on(day)),
            Self::Ended { on: day } => format!("{name}'s membership ended{}.", on(day)),
            Self::Moved { on: day } => format!("{name} moved to another clinic{}.", on(day)),
            Self::Cancelled { on: day } => format!("{name} was taken off their family's account{}.", on(day)),
            Self::NotActiveYet => {
                format!("{name} has not had a first visit yet: activate or decline the enrolment instead.")
            }
        }
    }
}

/// Decides `decision` on a membership; `today` is the server's UTC day. Dates after today are
/// refused first (they need no membership), then the state, then the dates the membership
/// bounds. Answers the new status.
pub fn decide(
    membership: &MembershipFacts,
    decision: &PanelDecision,
    today: NaiveDate,
) -> Result<PanelStatus, DecisionRefusal> {
    match decision {
        PanelDecision::Activate { first_visit } if *first_visit > today => {
            return Err(DecisionRefusal::FirstVisitInFuture);
        }
        PanelDecision::End { end_date, .. } if *end_date > today => return Err(DecisionRefusal::EndDateInFuture),
        _ => {}
    }
    let wanted_from = match decision {
        PanelDecision::Activate { .. } | PanelDecision::Decline { .. } => PanelStatus::Pending,
        PanelDecision::End { .. } => PanelStatus::Active,
    };
    if membership.status != wanted_from {
        let closed_on = membership.closed_on;
        let conflict = match membership.status {
            PanelStatus::Active => StateConflict::AlreadyActive {
                first_visit: membership.active_from,
            },
            PanelStatus::Pending => StateConflict::NotActiveYet,
            PanelStatus::Declined => StateConflict::Declined { on: closed_on },
            PanelStatus::Ended => StateConflict::Ended {
                on: closed_on.or(membership.active_from),
            },
            PanelStatus::Moved => StateConflict::Moved { on: closed_on },
            PanelStatus::Cancelled => StateConflict::Cancelled { on: closed_on },
        };
        return Err(DecisionRefusal::State(conflict));
    }
    match decision {
        PanelDecision::Activate { first_visit } if *first_visit < membership.enrolled_on => {
            Err(DecisionRefusal::FirstVisitBeforeEnrolment {
                enrolled_on: membership.enrolled_on,
            })
        }
        PanelDecision::End { end_date, .. } => match membership.active_from {
            Some(first_visit) if *end_date < first_visit => Err(DecisionRefusal::EndBeforeFirstVisit { first_visit }),
            _ => Ok(decision.target()),
        },
        _ => Ok(decision.target()),
    }
}

/// A day as the panel and the emails write it: "Nov 3, 2026".
pub fn long_date(day: NaiveDate) -> String {
    day.format("%b %-d, %Y").to_string()
}

/// A calendar month (`YYYY-MM`), the roster's period.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Month {
    first_day: NaiveDate,
}

impl Month {
    /// Parses `YYYY-MM`: four digits, a dash, a month 01 to 12.
    pub fn parse(input: &str) -> Option<Self> {
        let (year, month) = input.split_once('-')?;
        if year.len() != 4 || month.len() != 2 || !(year.bytes().chain(month.bytes())).all(|b| b.is_ascii_digit()) {
            return None;
        }
        let first_day = NaiveDate::from_ymd_opt(year.parse().ok()?, month.parse().ok()?, 1)?;
        Some(Self { first_day })
    }

    /// The month holding `day`.
    pub fn of(day: NaiveDate) -> Self {
        Self {
            first_day: day.with_day(1).unwrap_or(day),
        }
    }

    pub fn first_day(self) -> NaiveDate {
        self.first_day
    }

    pub fn last_day(self) -> NaiveDate {
        self.first_day
            .checked_add_months(Months::new(1))
            .and_then(|next| next.pred_opt())
            .unwrap_or(self.first_day)
    }
}

impl std::fmt::Display for Month {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.first_day.format("%Y-%m"))
    }
}

/// The days of `month` a membership active from `active_from` to `active_until` (its last
/// day, `None` while active) was active, both ends included, counting no day after `today`.
/// Zero when the periods do not meet.
pub fn days_active(month: Month, active_from: NaiveDate, active_until: Option<NaiveDate>, today: NaiveDate) -> u32 {
    let start = active_from.max(month.first_day());
    let end = [Some(month.last_day()), active_until, Some(today)]
        .into_iter()
        .flatten()
        .min()
        .unwrap_or(today);
    if end < start {
        return 0;
    }
    u32::try_from((end - start).num_days() + 1).unwrap_or(0)
}

/// One CSV field as RFC 4180 writes it, always quoted (a `"` inside doubled). A value a
/// spreadsheet would read as a formula (a first character `=`, `+`, `-`, `@`, tab or carriage
/// return; OWASP "CSV Injection") gets a leading `'` so it shows as text.
pub fn csv_field(value: &str) -> String {
    let mut field = String::with_capacity(value.len() + 3);
    field.push('"');
    if value.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        field.push('\'');
    }
    for character in value.chars() {
        if character == '"' {
            field.push('"');
        }
        field.push(character);
    }
    field.push('"');
    field
}

/// One CSV record: the fields as [`csv_field`] writes them, ended by CRLF.
pub fn csv_record<'a>(fields: impl IntoIterator<Item = &'a str>) -> String {
    let mut record = fields.into_iter().map(csv_field).collect::<Vec<_>>().join(",");
    record.push_str("\r\n");
    record
}

#[cfg(test)]
mod tests;
