//! Eligibility: is this person covered, and under which plan? Behind a trait so that a
//! clearinghouse client can replace the roster kept in PostgreSQL.

use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use chrono::NaiveDate;
use domain::Relation;
use store::PgPool;
use store::roster::RosterRow;

/// A person as the eligibility form describes them.
#[derive(Debug, Clone)]
pub struct Person {
    pub first_name: String,
    pub last_name: String,
    pub dob: NaiveDate,
    pub member_id: String,
}

/// What is checked.
#[derive(Debug, Clone)]
pub struct EligibilityQuery {
    pub person: Person,
    /// The payer chosen in the form; any payer when absent.
    pub payer_id: Option<String>,
    /// The plan chosen in the form; not compared when absent.
    pub plan_id: Option<String>,
    pub relation: Relation,
    /// For a spouse or dependent: the subscriber's member id.
    pub subscriber_member_id: Option<String>,
    /// The subscriber's own details, sent after a first attempt failed: the person is then
    /// looked up among the subscriber's family by name and date of birth.
    pub subscriber: Option<Person>,
}

/// The coverage found for a confirmed person.
#[derive(Debug, Clone)]
pub struct Coverage {
    pub payer_id: String,
    pub member_id: String,
    pub plan_id: String,
    pub group_number: String,
    pub relation: Relation,
    pub subscriber_member_id: String,
    pub pediatric_covered: bool,
    /// How many other people are covered under the same subscriber.
    pub family_size: i64,
}

/// The answer of an eligibility check.
#[derive(Debug, Clone)]
pub enum EligibilityOutcome {
    /// Covered, under the plan asked for.
    Confirmed(Coverage),
    /// Covered, but under another plan.
    NotOnPlan,
    /// Nobody with these details is covered.
    WrongData,
    /// The check could not run (payer or clearinghouse down, timeout).
    Unavailable,
}

/// Checks eligibility; implementations must answer within their own time limit.
pub trait Eligibility: Send + Sync {
    fn check<'a>(
        &'a self,
        query: &'a EligibilityQuery,
    ) -> Pin<Box<dyn Future<Output = EligibilityOutcome> + Send + 'a>>;
}

/// Eligibility from the `eligibility_roster` table (the payers' member files).
pub struct RosterEligibility {
    pool: PgPool,
    timeout: Duration,
}

impl RosterEligibility {
    pub fn new(pool: PgPool) -> Self {
        Self {
            pool,
            timeout: Duration::from_secs(5),
        }
    }

    async fn lookup(&self, query: &EligibilityQuery) -> store::Result<EligibilityOutcome> {
        let payer = query.payer_id.as_deref();
        let line = match &query.subscriber {
            Some(subscriber) if query.relation != Relation::SelfSubscriber => {
                let subscriber_line = store::roster::lines_for_member(&self.pool, payer, &subscriber.member_id)
                    .await?
                    .into_iter()
                    .find(|line| line.relation == "Self" && same_person(line, subscriber));
                let Some(subscriber_line) = subscriber_line else {
                    return Ok(EligibilityOutcome::WrongData);
                };
                self.family_line(&subscriber_line, &query.person).await?
            }
            _ => store::roster::lines_for_member(&self.pool, payer, &query.person.member_id)
                .await?
                .into_iter()
                .find(|line| same_person(line, &query.person)),
        };
        let Some(line) = line else {
            return Ok(EligibilityOutcome::WrongData);
        };
        let relation_matches = line.relation == query.relation.as_str()
            && match query.relation {
                Relation::SelfSubscriber => true,
                Relation::Spouse | Relation::Dependent => query
                    .subscriber_member_id
                    .as_deref()
                    .is_none_or(|id| id.eq_ignore_ascii_case(&line.subscriber_member_id)),
            };
        if !relation_matches {
            return Ok(EligibilityOutcome::WrongData);
        }
        if query.plan_id.as_deref().is_some_and(|plan| plan != line.plan_id) {
            return Ok(EligibilityOutcome::NotOnPlan);
        }
        let family_size =
            store::roster::family_size(&self.pool, &line.payer_id, &line.subscriber_member_id, &line.member_id).await?;
        Ok(EligibilityOutcome::Confirmed(Coverage {
            relation: Relation::parse(&line.relation).unwrap_or(query.relation),
            payer_id: line.payer_id,
            member_id: line.member_id,
            plan_id: line.plan_id,
            group_number: line.group_number,
            subscriber_member_id: line.subscriber_member_id,
            pediatric_covered: line.pediatric_covered,
            family_size,
        }))
    }

    /// The roster line of `person` under the subscriber of `subscriber_line`.
    async fn family_line(&self, subscriber_line: &RosterRow, person: &Person) -> store::Result<Option<RosterRow>> {
        let rows =
            store::roster::family_lines(&self.pool, &subscriber_line.payer_id, &subscriber_line.member_id).await?;
        Ok(rows.into_iter().find(|line| same_person(line, person)))
    }
}

/// Names compare case-insensitively, the date of birth exactly (the member id is matched by
/// the lookup, or deliberately not at all for a family member found through the subscriber).
fn same_person(line: &RosterRow, person: &Person) -> bool {
    line.first_name.trim().to_lowercase() == person.first_name.trim().to_lowercase()
        && line.last_name.trim().to_lowercase() == person.last_name.trim().to_lowercase()
        && line.date_of_birth == person.dob
}

impl Eligibility for RosterEligibility {
    fn check<'a>(
        &'a self,
        query: &'a EligibilityQuery,
    ) -> Pin<Box<dyn Future<Output = EligibilityOutcome> + Send + 'a>> {
        Box::pin(async move {
            match tokio::time::timeout(self.timeout, self.lookup(query)).await {
                Ok(Ok(outcome)) => outcome,
                Ok(Err(error)) => {
                    tracing::error!(error = %error, "eligibility roster lookup failed");
                    EligibilityOutcome::Unavailable
                }
                Err(_) => {
                    tracing::error!("eligibility roster lookup timed out");
                    EligibilityOutcome::Unavailable
                }
            }
        })
    }
}
