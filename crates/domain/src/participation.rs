//! Solution participation: money in cents, the fees of one transaction (spec section 9) and the
//! participation state machine (section 4). See docs/provider-contract.md.

use std::fmt;

/// An amount of US cents. Arithmetic stays in integers; JSON shows it as a decimal string.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct Cents(pub i64);

impl fmt::Display for Cents {
    /// Two decimals, no currency sign: `75.00`, `-0.05`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let magnitude = self.0.unsigned_abs();
        write!(f, "{sign}{}.{:02}", magnitude / 100, magnitude % 100)
    }
}

impl std::ops::Add for Cents {
    type Output = Self;
    fn add(self, other: Self) -> Self {
        Self(self.0 + other.0)
    }
}

impl std::ops::Sub for Cents {
    type Output = Self;
    fn sub(self, other: Self) -> Self {
        Self(self.0 - other.0)
    }
}

impl std::ops::Mul<i64> for Cents {
    type Output = Self;
    fn mul(self, times: i64) -> Self {
        Self(self.0 * times)
    }
}

impl std::iter::Sum for Cents {
    fn sum<I: Iterator<Item = Self>>(iter: I) -> Self {
        Self(iter.map(|cents| cents.0).sum())
    }
}

/// The highest TPA fee, 2 %, in hundredths of a percent.
pub const MAX_TPA_BASIS_POINTS: u32 = 200;
/// The platform fee per transaction, 3 %.
pub const PLATFORM_BASIS_POINTS: u32 = 300;
/// The solution facilitator's fee per transaction, $5.
pub const FACILITATOR_FEE: Cents = Cents(500);
/// A year of monthly payments.
pub const MONTHS_PER_YEAR: i64 = 12;

/// `amount` × `basis_points` / 10 000, rounded half up to the cent: the one rounding of a fee.
pub fn percentage_of(amount: Cents, basis_points: u32) -> Cents {
    let exact_times_10000 = i128::from(amount.0) * i128::from(basis_points);
    let rounded = (exact_times_10000 + 5_000).div_euclid(10_000);
    Cents(i64::try_from(rounded).unwrap_or(i64::MAX))
}

/// Who a fee goes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FeeEntity {
    Tpa,
    Platform,
    Facilitator,
}

impl FeeEntity {
    pub fn label(self) -> &'static str {
        match self {
            Self::Tpa => "TPA",
            Self::Platform => "Platform",
            Self::Facilitator => "Solution facilitator",
        }
    }
}

/// How a fee is set: a share of the base rate or a flat amount.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FeeRule {
    Percent { basis_points: u32 },
    Flat(Cents),
}

impl FeeRule {
    pub fn kind(self) -> &'static str {
        match self {
            Self::Percent { .. } => "percent",
            Self::Flat(_) => "flat",
        }
    }

    /// The rule's own figure as shown: the percentage (`1.50`) or the flat amount (`5.00`).
    pub fn value(self) -> String {
        match self {
            // Basis points are hundredths of a percent, so they print like cents.
            Self::Percent { basis_points } => Cents(i64::from(basis_points)).to_string(),
            Self::Flat(amount) => amount.to_string(),
        }
    }

    fn apply(self, base: Cents) -> Cents {
        match self {
            Self::Percent { basis_points } => percentage_of(base, basis_points),
            Self::Flat(amount) => amount,
        }
    }
}

/// The fees of a solution whose TPA fee is `tpa_basis_points`, in the order they are shown.
pub fn fee_schedule(tpa_basis_points: u32) -> [(FeeEntity, FeeRule); 3] {
    [
        (
            FeeEntity::Tpa,
            FeeRule::Percent {
                basis_points: tpa_basis_points,
            },
        ),
        (
            FeeEntity::Platform,
            FeeRule::Percent {
                basis_points: PLATFORM_BASIS_POINTS,
            },
        ),
        (FeeEntity::Facilitator, FeeRule::Flat(FACILITATOR_FEE)),
    ]
}

/// One fee of a period.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fee {
    pub entity: FeeEntity,
    pub rule: FeeRule,
    pub amount: Cents,
}

/// A period's figures for one member: the base rate, each fee, their sum and what the
/// provider nets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Period {
    pub base_rate: Cents,
    pub fees: Vec<Fee>,
    pub fees_total: Cents,
    pub total: Cents,
}

impl Period {
    fn times(&self, months: i64) -> Self {
        Self {
            base_rate: self.base_rate * months,
            fees: self
                .fees
                .iter()
                .map(|fee| Fee {
                    amount: fee.amount * months,
                    ..fee.clone()
                })
                .collect(),
            fees_total: self.fees_total * months,
            total: self.total * months,
        }
    }
}

/// The monthly and yearly figures of a rate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RateCalculation {
    pub monthly: Period,
    pub yearly: Period,
}

/// What one member's monthly payment at `base_rate` leaves the provider after the fees, and the
/// same for a year. Each fee is rounded once, on the monthly payment; a year is twelve payments.
pub fn calculate(base_rate: Cents, tpa_basis_points: u32) -> RateCalculation {
    let fees: Vec<Fee> = fee_schedule(tpa_basis_points)
        .into_iter()
        .map(|(entity, rule)| Fee {
            entity,
            rule,
            amount: rule.apply(base_rate),
        })
        .collect();
    let fees_total: Cents = fees.iter().map(|fee| fee.amount).sum();
    let monthly = Period {
        base_rate,
        fees,
        fees_total,
        total: base_rate - fees_total,
    };
    let yearly = monthly.times(MONTHS_PER_YEAR);
    RateCalculation { monthly, yearly }
}

/// Where an organisation's participation in a solution stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParticipationStatus {
    /// Agreed by the provider, awaiting the facilitator.
    Pending,
    /// Approved by the facilitator.
    Active,
    Declined,
    Stopped,
}

impl ParticipationStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Pending => "pending",
            Self::Active => "active",
            Self::Declined => "declined",
            Self::Stopped => "stopped",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        [Self::Pending, Self::Active, Self::Declined, Self::Stopped]
            .into_iter()
            .find(|status| status.as_str() == text)
    }

    /// Pending or active: the provider has agreed to the contract and it has not ended.
    pub fn is_live(self) -> bool {
        matches!(self, Self::Pending | Self::Active)
    }

    /// What the provider's screens call it: Pending Approval, Active, or Inactive for the rest
    /// (no participation at all is "Not contracted").
    pub fn card_status(self) -> &'static str {
        match self {
            Self::Pending => "pending",
            Self::Active => "active",
            Self::Declined | Self::Stopped => "inactive",
        }
    }
}

/// A change asked of a participation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Transition {
    /// The facilitator (or an operator) approves a pending participation, or an active one's
    /// requested rate change.
    Approve,
    /// The facilitator (or an operator) declines a pending participation, or an active one's
    /// requested rate change (the participation stays active at its rate).
    Decline,
    /// The provider stops a pending or active participation.
    Stop,
    /// The provider picks another rate: a pending participation stays pending at the new rate;
    /// an active one stays active at its rate, the new one waiting for the facilitator.
    ChangeRate,
}

/// The status after `transition`, or `None` when it does not apply to `from`.
/// `change_requested`: an active participation has a rate change waiting for the facilitator,
/// which is what approving or declining an active one decides.
pub fn next_status(
    from: ParticipationStatus,
    transition: Transition,
    change_requested: bool,
) -> Option<ParticipationStatus> {
    use ParticipationStatus::{Active, Declined, Pending, Stopped};
    match (from, transition) {
        (Pending, Transition::Approve) => Some(Active),
        (Pending, Transition::Decline) => Some(Declined),
        (Active, Transition::Approve | Transition::Decline) if change_requested => Some(Active),
        (Pending | Active, Transition::Stop) => Some(Stopped),
        (Pending, Transition::ChangeRate) => Some(Pending),
        (Active, Transition::ChangeRate) => Some(Active),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cents_print_with_two_decimals() {
        assert_eq!(Cents(7500).to_string(), "75.00");
        assert_eq!(Cents(5).to_string(), "0.05");
        assert_eq!(Cents(-125).to_string(), "-1.25");
        assert_eq!(Cents(0).to_string(), "0.00");
    }

    #[test]
    fn a_percentage_rounds_half_up_once() {
        assert_eq!(percentage_of(Cents(7500), 300), Cents(225));
        // 1.5 % of 33.33 is 0.49995: rounds to 0.50.
        assert_eq!(percentage_of(Cents(3333), 150), Cents(50));
        // 3 % of 0.50 is 0.015: rounds to 0.02.
        assert_eq!(percentage_of(Cents(50), 300), Cents(2));
        // 3 % of 0.49 is 0.0147: rounds to 0.01.
        assert_eq!(percentage_of(Cents(49), 300), Cents(1));
        assert_eq!(percentage_of(Cents(7500), 0), Cents(0));
    }

    #[test]
    fn a_monthly_payment_nets_the_base_rate_less_three_fees() {
        let calculation = calculate(Cents(7500), 150);
        let monthly = &calculation.monthly;
        let amounts: Vec<(&str, Cents)> = monthly
            .fees
            .iter()
            .map(|fee| (fee.entity.label(), fee.amount))
            .collect();
        assert_eq!(
            amounts,
            [
                ("TPA", Cents(113)),
                ("Platform", Cents(225)),
                ("Solution facilitator", Cents(500))
            ]
        );
        assert_eq!(monthly.fees_total, Cents(838));
        assert_eq!(monthly.total, Cents(6662));
        assert_eq!(monthly.fees[0].rule.value(), "1.50");
        assert_eq!(monthly.fees[2].rule.value(), "5.00");
    }

    #[test]
    fn a_year_is_exactly_twelve_monthly_payments() {
        for base in [1, 99, 3333, 7500, 12_345, 1_000_000] {
            for tpa in [0, 1, 75, 150, 200] {
                let calculation = calculate(Cents(base), tpa);
                let (monthly, yearly) = (&calculation.monthly, &calculation.yearly);
                assert_eq!(yearly.base_rate, monthly.base_rate * 12);
                assert_eq!(yearly.fees_total, monthly.fees_total * 12);
                assert_eq!(yearly.total, monthly.total * 12);
                assert_eq!(yearly.total, yearly.base_rate - yearly.fees_total);
                for (month_fee, year_fee) in monthly.fees.iter().zip(&yearly.fees) {
                    assert_eq!(year_fee.amount, month_fee.amount * 12);
                }
            }
        }
    }

    #[test]
    fn participations_move_only_along_the_spec_s_states() {
        use ParticipationStatus::{Active, Declined, Pending, Stopped};
        assert_eq!(next_status(Pending, Transition::Approve, false), Some(Active));
        assert_eq!(next_status(Pending, Transition::Decline, false), Some(Declined));
        assert_eq!(next_status(Active, Transition::Stop, true), Some(Stopped));
        // A rate change keeps an active participation active: its rate stays in force meanwhile.
        assert_eq!(next_status(Active, Transition::ChangeRate, false), Some(Active));
        assert_eq!(next_status(Pending, Transition::ChangeRate, false), Some(Pending));
        assert_eq!(next_status(Active, Transition::Approve, true), Some(Active));
        assert_eq!(next_status(Active, Transition::Decline, true), Some(Active));
        assert_eq!(next_status(Active, Transition::Approve, false), None);
        assert_eq!(next_status(Active, Transition::Decline, false), None);
        assert_eq!(next_status(Declined, Transition::Stop, false), None);
        assert_eq!(next_status(Stopped, Transition::Approve, false), None);
        for status in [Pending, Active, Declined, Stopped] {
            assert_eq!(ParticipationStatus::parse(status.as_str()), Some(status));
        }
        assert_eq!(Declined.card_status(), "inactive");
    }
}
