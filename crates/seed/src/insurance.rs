//! Payers, plans, employer groups and the eligibility roster.

use domain::{Employer, EmployerGroup, EmployerStatus, Gender, Payer, Plan, Relation, RosterMember};

use crate::demo;
use crate::names::Census;
use crate::rng::{Permutation, Rng, Weighted, pick_weighted, stream};

/// Roster rows for a catalogue of `clinics` locations: 200, plus one per 200 clinics, at most
/// 5,000 (demo families included).
pub(crate) fn roster_size(clinics: usize) -> usize {
    (200 + clinics / 200).min(5_000)
}

/// A plan's id, name and group id.
type PlanSpec = (&'static str, &'static str, &'static str);

/// Payers (fictional names) and their plans.
const PAYERS: &[(&str, &str, &[PlanSpec])] = &[
    (
        demo::PAYER_ID,
        demo::PAYER_NAME,
        &[
            (demo::ACME_PLAN_ID, demo::ACME_PLAN_NAME, "CHP-GOLD"),
            (demo::NORTHWIND_PLAN_ID, demo::NORTHWIND_PLAN_NAME, "CHP-SILVER"),
            (demo::INITECH_PLAN_ID, "Cascade Bronze HDHP", "CHP-BRONZE"),
        ],
    ),
    (
        "41150",
        "Prairie Mutual Health",
        &[
            ("PLN-1004", "Prairie Mutual Choice PPO", "PMH-CHOICE"),
            ("PLN-1005", "Prairie Mutual Value EPO", "PMH-VALUE"),
        ],
    ),
    (
        "73288",
        "Lakeshore Benefit Administrators",
        &[
            ("PLN-1006", "Lakeshore Self-Funded PPO", "LBA-PPO"),
            ("PLN-1007", "Lakeshore HSA Plan", "LBA-HSA"),
            ("PLN-1008", "Lakeshore Open Access", "LBA-OA"),
        ],
    ),
    (
        "25133",
        "Bluewater Health Alliance",
        &[
            ("PLN-1009", "Bluewater Premier PPO", "BHA-PREMIER"),
            ("PLN-1010", "Bluewater Essential HMO", "BHA-ESSENTIAL"),
        ],
    ),
    (
        "91062",
        "Keystone Care Assurance",
        &[
            ("PLN-1011", "Keystone Plus PPO", "KCA-PLUS"),
            ("PLN-1012", "Keystone Basic HDHP", "KCA-BASIC"),
        ],
    ),
];

/// The payers and their plans (plan id, name, group id), for the provider directory too.
pub(crate) fn payer_plans() -> impl Iterator<Item = (&'static str, &'static str, &'static [PlanSpec])> {
    PAYERS.iter().copied()
}

pub(crate) fn payers() -> Vec<Payer> {
    PAYERS
        .iter()
        .map(|(id, name, _)| Payer {
            id: (*id).to_owned(),
            name: (*name).to_owned(),
        })
        .collect()
}

pub(crate) fn plans() -> Vec<Plan> {
    PAYERS
        .iter()
        .flat_map(|(payer_id, _, plans)| {
            plans.iter().map(move |(plan_id, name, group_id)| Plan {
                plan_id: (*plan_id).to_owned(),
                name: (*name).to_owned(),
                payer_id: (*payer_id).to_owned(),
                group_id: (*group_id).to_owned(),
            })
        })
        .collect()
}

/// The group number of an employer's n-th group (n from 1).
fn group_number(employer_id: i64, n: i64) -> String {
    (1_000_000 + 10 * employer_id + n).to_string()
}

/// Gives each active employer one or two groups, each inactive one one group and half the
/// pending ones one group; the demo employers get the groups [`crate::demo`] names.
pub(crate) fn employer_groups(employers: &[Employer], plans: &[Plan], seed: u64) -> Vec<EmployerGroup> {
    let mut rng = Rng::new(seed, stream::ROSTER);
    let demo_plans = [
        demo::ACME_PLAN_ID,
        demo::NORTHWIND_PLAN_ID,
        demo::GLOBEX_PLAN_ID,
        demo::INITECH_PLAN_ID,
    ];
    let mut groups = Vec::with_capacity(employers.len() * 2);
    for employer in employers {
        let demo_index = (employer.id - 1) as usize;
        if demo_index < demo::EMPLOYER_COUNT {
            groups.push(EmployerGroup {
                employer_id: employer.id,
                payer_id: demo::PAYER_ID.to_owned(),
                group_number: group_number(employer.id, 1),
                plan_id: demo_plans[demo_index].to_owned(),
            });
            continue;
        }
        let count = match employer.status {
            EmployerStatus::Active => pick_weighted(&mut rng, &[(1, 65), (2, 35)]),
            EmployerStatus::Inactive => 1,
            EmployerStatus::Pending => pick_weighted(&mut rng, &[(0, 1), (1, 1)]),
        };
        let first_plan = rng.below(plans.len());
        for n in 0..count {
            let plan = &plans[(first_plan + n * (1 + rng.below(plans.len() - 1))) % plans.len()];
            groups.push(EmployerGroup {
                employer_id: employer.id,
                payer_id: plan.payer_id.clone(),
                group_number: group_number(employer.id, n as i64 + 1),
                plan_id: plan.plan_id.clone(),
            });
        }
    }
    groups
}

/// Builds the roster: the demo families, then generated families until `size` rows.
pub(crate) fn roster(size: usize, employers: &[Employer], groups: &[EmployerGroup], seed: u64) -> Vec<RosterMember> {
    let mut rows = demo_roster();
    let census = Census::get();
    let mut rng = Rng::new(seed, stream::ROSTER ^ 0x5EED);
    let member_ids = MemberIds::new(&mut Rng::new(seed, stream::IDENTIFIERS ^ 0x5EED));
    let status_of = |employer_id: i64| {
        employers
            .iter()
            .find(|employer| employer.id == employer_id)
            .map(|employer| employer.status)
    };
    // Members of active employers are the bulk of a roster; others appear too, so the
    // inactive- and pending-employer flows can be exercised with generated members.
    let group_weights = Weighted::new(groups.iter().map(|group| match status_of(group.employer_id) {
        Some(EmployerStatus::Active) => 5.0,
        Some(_) => 1.0,
        None => 0.0,
    }));
    if group_weights.len() == 0 {
        rows.truncate(size);
        return rows;
    }
    let mut next_member = 0u64;
    let mut next_id = || loop {
        let id = member_ids.get(next_member);
        next_member += 1;
        if !demo::RESERVED_MEMBER_IDS.contains(&id.as_str()) {
            return id;
        }
    };
    while rows.len() < size {
        let group = &groups[group_weights.sample(&mut rng)];
        let subscriber_gender = if rng.chance(0.5) { Gender::F } else { Gender::M };
        let subscriber_age = rng.between(22, 64);
        let last_name = census.surname(&mut rng);
        let subscriber_id = next_id();
        let subscriber_first = census.first_name(subscriber_gender, &mut rng);
        let spouse = rng.chance(0.55).then(|| {
            let gender = match (subscriber_gender, rng.chance(0.92)) {
                (Gender::F, true) | (Gender::M, false) => Gender::M,
                _ => Gender::F,
            };
            let own_surname = if rng.chance(0.85) {
                last_name
            } else {
                census.surname(&mut rng)
            };
            let age = (subscriber_age as i64 + rng.between(0, 12) as i64 - 6).clamp(19, 75) as u32;
            (census.first_name(gender, &mut rng), own_surname, age)
        });
        let children = if !(24..=60).contains(&subscriber_age) {
            0
        } else {
            pick_weighted(&mut rng, &[(0, 35), (1, 20), (2, 30), (3, 12), (4, 3)])
        };
        let child_rows: Vec<(&str, u32, bool)> = (0..children)
            .map(|_| {
                let gender = if rng.chance(0.5) { Gender::F } else { Gender::M };
                // Born when the subscriber was between 19 and 45.
                let youngest = subscriber_age.saturating_sub(45).min(17);
                let oldest = (subscriber_age - 19).min(17);
                (
                    census.first_name(gender, &mut rng),
                    rng.between(youngest, oldest),
                    rng.chance(0.90),
                )
            })
            .collect();
        let mut member =
            |first_name: &str, last_name: &str, age: u32, relation, member_id: String, pediatric_covered| {
                RosterMember {
                    payer_id: group.payer_id.clone(),
                    member_id,
                    first_name: first_name.to_owned(),
                    last_name: last_name.to_owned(),
                    date_of_birth: date_of_birth(age, &mut rng),
                    plan_id: group.plan_id.clone(),
                    group_number: group.group_number.clone(),
                    relation,
                    subscriber_member_id: subscriber_id.clone(),
                    pediatric_covered,
                }
            };
        rows.push(member(
            subscriber_first,
            last_name,
            subscriber_age,
            Relation::SelfSubscriber,
            subscriber_id.clone(),
            false,
        ));
        if let Some((first, surname, age)) = spouse {
            rows.push(member(first, surname, age, Relation::Spouse, next_id(), false));
        }
        for (first, age, covered) in child_rows {
            rows.push(member(first, last_name, age, Relation::Dependent, next_id(), covered));
        }
    }
    rows.truncate(size);
    rows
}

fn demo_roster() -> Vec<RosterMember> {
    let row = |payer: &str,
               plan: &str,
               group: &str,
               (first, last, date_of_birth, member_id): (&str, &str, &str, &str),
               relation,
               subscriber: &str,
               pediatric_covered| RosterMember {
        payer_id: payer.to_owned(),
        member_id: member_id.to_owned(),
        first_name: first.to_owned(),
        last_name: last.to_owned(),
        date_of_birth: date_of_birth.to_owned(),
        plan_id: plan.to_owned(),
        group_number: group.to_owned(),
        relation,
        subscriber_member_id: subscriber.to_owned(),
        pediatric_covered,
    };
    let acme = |person, relation, covered| {
        row(
            demo::PAYER_ID,
            demo::ACME_PLAN_ID,
            demo::ACME_GROUP_NUMBER,
            person,
            relation,
            demo::SUBSCRIBER_MEMBER_ID,
            covered,
        )
    };
    let northwind = |person, relation, covered| {
        row(
            demo::PAYER_ID,
            demo::NORTHWIND_PLAN_ID,
            demo::NORTHWIND_GROUP_NUMBER,
            person,
            relation,
            demo::NORTHWIND_SUBSCRIBER_MEMBER_ID,
            covered,
        )
    };
    vec![
        acme(
            (
                demo::SUBSCRIBER_FIRST_NAME,
                demo::SUBSCRIBER_LAST_NAME,
                demo::SUBSCRIBER_DATE_OF_BIRTH,
                demo::SUBSCRIBER_MEMBER_ID,
            ),
            Relation::SelfSubscriber,
            false,
        ),
        acme(
            (
                demo::SPOUSE_FIRST_NAME,
                demo::SPOUSE_LAST_NAME,
                demo::SPOUSE_DATE_OF_BIRTH,
                demo::SPOUSE_MEMBER_ID,
            ),
            Relation::Spouse,
            false,
        ),
        acme(
            (
                demo::CHILD_FIRST_NAME,
                demo::CHILD_LAST_NAME,
                demo::CHILD_DATE_OF_BIRTH,
                demo::CHILD_MEMBER_ID,
            ),
            Relation::Dependent,
            true,
        ),
        northwind(
            (
                demo::NORTHWIND_SUBSCRIBER_FIRST_NAME,
                demo::NORTHWIND_SUBSCRIBER_LAST_NAME,
                demo::NORTHWIND_SUBSCRIBER_DATE_OF_BIRTH,
                demo::NORTHWIND_SUBSCRIBER_MEMBER_ID,
            ),
            Relation::SelfSubscriber,
            false,
        ),
        northwind(
            (
                demo::NORTHWIND_CHILD_FIRST_NAME,
                demo::NORTHWIND_CHILD_LAST_NAME,
                demo::NORTHWIND_CHILD_DATE_OF_BIRTH,
                demo::NORTHWIND_CHILD_MEMBER_ID,
            ),
            Relation::Dependent,
            false,
        ),
        row(
            demo::PAYER_ID,
            demo::GLOBEX_PLAN_ID,
            demo::GLOBEX_GROUP_NUMBER,
            (
                demo::GLOBEX_SUBSCRIBER_FIRST_NAME,
                demo::GLOBEX_SUBSCRIBER_LAST_NAME,
                demo::GLOBEX_SUBSCRIBER_DATE_OF_BIRTH,
                demo::GLOBEX_SUBSCRIBER_MEMBER_ID,
            ),
            Relation::SelfSubscriber,
            demo::GLOBEX_SUBSCRIBER_MEMBER_ID,
            false,
        ),
        row(
            demo::PAYER_ID,
            demo::INITECH_PLAN_ID,
            demo::INITECH_GROUP_NUMBER,
            (
                demo::INITECH_SUBSCRIBER_FIRST_NAME,
                demo::INITECH_SUBSCRIBER_LAST_NAME,
                demo::INITECH_SUBSCRIBER_DATE_OF_BIRTH,
                demo::INITECH_SUBSCRIBER_MEMBER_ID,
            ),
            Relation::SelfSubscriber,
            demo::INITECH_SUBSCRIBER_MEMBER_ID,
            false,
        ),
    ]
}

/// Distinct member ids "XXX-XXXXXX" from 100-000000 to 999-999999: a keyed permutation of a
/// counter.
struct MemberIds {
    permutation: Permutation,
}

impl MemberIds {
    fn new(rng: &mut Rng) -> Self {
        Self {
            permutation: Permutation::new(900_000_000, rng),
        }
    }

    fn get(&self, index: u64) -> String {
        let number = 100_000_000 + self.permutation.apply(index);
        format!("{:03}-{:06}", number / 1_000_000, number % 1_000_000)
    }
}

/// The day the generated ages are counted to: 1 July 2026.
const REFERENCE_DAY: i64 = 20_635;

/// A date of birth for someone `age` years old on [`REFERENCE_DAY`], as YYYY-MM-DD.
fn date_of_birth(age: u32, rng: &mut Rng) -> String {
    let days_back = i64::from(age) * 36_525 / 100 + rng.below(365) as i64;
    let (year, month, day) = civil_from_days(REFERENCE_DAY - days_back);
    format!("{year:04}-{month:02}-{day:02}")
}

/// Converts days since 1970-01-01 to a (year, month, day) date (Howard Hinnant's algorithm).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era = (day_of_era - day_of_era / 1_460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let shifted_month = (5 * day_of_year + 2) / 153;
    let day = (day_of_year - (153 * shifted_month + 2) / 5 + 1) as u32;
    let month = if shifted_month < 10 {
        shifted_month + 3
    } else {
        shifted_month - 9
    } as u32;
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_dates_convert_correctly() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(REFERENCE_DAY), (2026, 7, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
    }

    #[test]
    fn member_ids_are_distinct_and_well_formed() {
        let ids = MemberIds::new(&mut Rng::new(4, 0));
        let mut seen = std::collections::HashSet::new();
        for index in 0..20_000 {
            let id = ids.get(index);
            assert_eq!(id.len(), 10);
            assert_eq!(&id[3..4], "-");
            assert!(id[..3].bytes().chain(id[4..].bytes()).all(|b| b.is_ascii_digit()));
            assert!(!id.starts_with('0'));
            assert!(seen.insert(id));
        }
    }
}
