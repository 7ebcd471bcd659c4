//! The membership model: what a member still has to do (`nextStep`), whether their eligibility
//! is confirmed, the state of their subscription, and the transitions sign-up, a confirmed
//! eligibility and a chosen provider make. The strings are those the `members` table stores
//! (its check constraints) and the API answers; with the `sqlx` feature the enums are read and
//! written as PostgreSQL `text`.

use chrono::{Months, NaiveDate};

/// A stored status that is none of the known strings.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown {kind} {value:?}")]
pub struct UnknownValue {
    /// The enum the value was read as.
    pub kind: &'static str,
    pub value: String,
}

/// Defines a field-less enum stored and answered as fixed strings: `as_str`, `FromStr`,
/// `Display`, serde, and (with the `sqlx` feature) PostgreSQL `text`, all from one list.
macro_rules! text_enum {
    (
        $(#[$meta:meta])*
        pub enum $name:ident {
            $($(#[$variant_meta:meta])* $variant:ident = $text:tt,)*
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
        pub enum $name {
            $($(#[$variant_meta])* #[serde(rename = $text)] $variant,)*
        }

        impl $name {
            /// Every value, in declaration order.
            pub const ALL: &[Self] = &[$(Self::$variant),*];

            /// The string stored and answered.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Self::$variant => $text,)*
                }
            }
        }

        impl ::std::str::FromStr for $name {
            type Err = $crate::membership::UnknownValue;

            fn from_str(text: &str) -> Result<Self, Self::Err> {
                match text {
                    $($text => Ok(Self::$variant),)*
                    _ => Err($crate::membership::UnknownValue {
                        kind: stringify!($name),
                        value: text.to_owned(),
                    }),
                }
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        #[cfg(feature = "sqlx")]
        impl sqlx::Type<sqlx::Postgres> for $name {
            fn type_info() -> sqlx::postgres::PgTypeInfo {
                <str as sqlx::Type<sqlx::Postgres>>::type_info()
            }

            fn compatible(ty: &sqlx::postgres::PgTypeInfo) -> bool {
                <str as sqlx::Type<sqlx::Postgres>>::compatible(ty)
            }
        }

        #[cfg(feature = "sqlx")]
        impl<'r> sqlx::Decode<'r, sqlx::Postgres> for $name {
            fn decode(value: sqlx::postgres::PgValueRef<'r>) -> Result<Self, sqlx::error::BoxDynError> {
                Ok(<&str as sqlx::Decode<'r, sqlx::Postgres>>::decode(value)?.parse()?)
            }
        }

        #[cfg(feature = "sqlx")]
        impl sqlx::Encode<'_, sqlx::Postgres> for $name {
            fn encode_by_ref(
                &self,
                buf: &mut sqlx::postgres::PgArgumentBuffer,
            ) -> Result<sqlx::encode::IsNull, sqlx::error::BoxDynError> {
                <&str as sqlx::Encode<'_, sqlx::Postgres>>::encode(self.as_str(), buf)
            }
        }
    };
}
pub(crate) use text_enum;

text_enum! {
    /// What a member still has to do (the spec's nextStep).
    #[derive(Default)]
    pub enum NextStep {
        /// A provider is still to be chosen (a new member, as the `members` table's default).
        #[default]
        SelectDpc = "selectDPC",
        /// Eligibility is still to be confirmed.
        ConfirmPlan = "confirmPlan",
        /// Enrolled.
        Complete = "complete",
    }
}

text_enum! {
    /// Whether the member's insurance was confirmed against the roster (`eligibility.status`);
    /// none until a check ran.
    pub enum EligibilityStatus {
        /// The check could not run (the payer was unreachable); details are saved.
        Pending = "pending",
        Active = "active",
        Inactive = "inactive",
    }
}

text_enum! {
    /// The state of a member's subscription with their provider (`subscription.status`): pending
    /// the first visit once a provider is chosen.
    pub enum MembershipStatus {
        Pending = "pending",
        Active = "active",
        Inactive = "inactive",
    }
}

impl NextStep {
    /// The step of a member who just signed up: confirm the plan when a provider was chosen
    /// before sign-up, else choose one.
    pub fn after_sign_up(provider_chosen: bool) -> Self {
        if provider_chosen {
            Self::ConfirmPlan
        } else {
            Self::SelectDpc
        }
    }

    /// The step after choosing a provider: enrolled when eligibility is confirmed, else still
    /// to confirm the plan.
    pub fn after_choosing_provider(eligibility: Option<EligibilityStatus>) -> Self {
        if eligibility == Some(EligibilityStatus::Active) {
            Self::Complete
        } else {
            Self::ConfirmPlan
        }
    }
}

/// What a confirmed eligibility changes in a member's state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Enrolment {
    pub next_step: NextStep,
    /// The subscription status and its validity, set when a provider is chosen.
    pub subscription: Option<(MembershipStatus, NaiveDate)>,
}

impl Enrolment {
    /// After eligibility is confirmed: enrolled (subscription pending the first visit, valid for
    /// a year) when a provider is chosen, else still to choose one. An existing subscription is
    /// kept as it is.
    pub fn after_confirmation(
        provider_chosen: bool,
        current: Option<(MembershipStatus, NaiveDate)>,
        today: NaiveDate,
    ) -> Self {
        if !provider_chosen {
            return Self {
                next_step: NextStep::SelectDpc,
                subscription: current,
            };
        }
        let subscription = current.or_else(|| Some((MembershipStatus::Pending, one_year_after(today))));
        Self {
            next_step: NextStep::Complete,
            subscription,
        }
    }
}

/// The membership a successful choice of provider leaves: pending the first visit, valid for
/// a year.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Membership {
    pub location_id: i64,
    pub next_step: NextStep,
    pub subscription: MembershipStatus,
    pub expire: NaiveDate,
}

impl Membership {
    /// The membership at `location_id` for a member whose eligibility is `eligibility`.
    pub fn chosen(location_id: i64, eligibility: Option<EligibilityStatus>, today: NaiveDate) -> Self {
        Self {
            location_id,
            next_step: NextStep::after_choosing_provider(eligibility),
            subscription: MembershipStatus::Pending,
            expire: one_year_after(today),
        }
    }
}

/// Whether choosing a provider moves a pending membership rather than starting one: the
/// subscription is pending and the member is past choosing a provider.
pub fn is_provider_change(next_step: NextStep, subscription: Option<MembershipStatus>) -> bool {
    subscription == Some(MembershipStatus::Pending) && next_step != NextStep::SelectDpc
}

/// The same day a year later (28 February for 29 February).
pub fn one_year_after(day: NaiveDate) -> NaiveDate {
    day.checked_add_months(Months::new(12)).unwrap_or(day)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(text: &str) -> NaiveDate {
        NaiveDate::parse_from_str(text, "%Y-%m-%d").unwrap()
    }

    #[test]
    fn statuses_read_back_the_strings_they_are_stored_as() {
        for step in NextStep::ALL {
            assert_eq!(step.as_str().parse(), Ok(*step));
            assert_eq!(serde_json::to_value(step).unwrap(), step.as_str());
        }
        for status in EligibilityStatus::ALL {
            assert_eq!(status.as_str().parse(), Ok(*status));
        }
        for status in MembershipStatus::ALL {
            assert_eq!(status.as_str().parse(), Ok(*status));
        }
        assert_eq!(NextStep::SelectDpc.as_str(), "selectDPC");
        assert_eq!(
            serde_json::to_string(&NextStep::ConfirmPlan).unwrap(),
            "\"confirmPlan\""
        );
        assert_eq!(
            "selectDpc".parse::<NextStep>(),
            Err(UnknownValue {
                kind: "NextStep",
                value: "selectDpc".into()
            })
        );
    }

    #[test]
    fn sign_up_asks_to_confirm_the_plan_only_when_a_provider_was_chosen() {
        assert_eq!(NextStep::after_sign_up(true), NextStep::ConfirmPlan);
        assert_eq!(NextStep::after_sign_up(false), NextStep::SelectDpc);
    }

    #[test]
    fn confirmation_with_a_provider_completes_with_a_year_of_pending_subscription() {
        let today = day("2026-11-21");
        let enrolled = Enrolment::after_confirmation(true, None, today);
        assert_eq!(enrolled.next_step, NextStep::Complete);
        assert_eq!(
            enrolled.subscription,
            Some((MembershipStatus::Pending, day("2027-11-21")))
        );
        let without = Enrolment::after_confirmation(false, None, today);
        assert_eq!(without.next_step, NextStep::SelectDpc);
        assert_eq!(without.subscription, None);
        let active = Some((MembershipStatus::Active, day("2027-01-01")));
        assert_eq!(Enrolment::after_confirmation(true, active, today).subscription, active);
        assert_eq!(one_year_after(day("2024-02-29")), day("2025-02-28"));
    }

    #[test]
    fn only_a_pending_membership_past_choosing_a_provider_can_change() {
        assert!(is_provider_change(NextStep::Complete, Some(MembershipStatus::Pending)));
        assert!(is_provider_change(
            NextStep::ConfirmPlan,
            Some(MembershipStatus::Pending)
        ));
        assert!(!is_provider_change(
            NextStep::SelectDpc,
            Some(MembershipStatus::Pending)
        ));
        assert!(!is_provider_change(
            NextStep::Complete,
            Some(MembershipStatus::Inactive)
        ));
        assert!(!is_provider_change(NextStep::Complete, None));
    }
}
