//! Writing a whole catalogue with COPY, one table after another in one transaction.

use domain::{Catalogue, Clinician, Employer, Location, Organisation};
use sqlx::{Acquire, PgPool, Postgres, Transaction};

use crate::copy::CopyBuffer;
use crate::{Result, StoreError};

/// COPY payloads are sent in chunks of about this many bytes.
const COPY_CHUNK_BYTES: usize = 4 << 20;

/// Tables in an order that respects foreign keys when truncating in reverse.
const CATALOGUE_TABLES: &str = "directory_role_links, directory_identities, insurance_plan_networks, insurance_plans, \
     network_organisations, networks, eligibility_roster, employer_groups, plans, payers, solution_rates, solutions, vendors, \
     marketplace_categories, clinician_locations, clinicians, locations, employer_network, employers, organisations";

/// Writes a whole catalogue in one transaction. With `replace`, the previous catalogue is
/// removed first; without it, a non-empty catalogue is refused.
pub async fn load(pool: &PgPool, catalogue: &Catalogue, replace: bool) -> Result<()> {
    let mut transaction = pool.begin().await?;
    let existing: i64 = sqlx::query_scalar("select count(*) from organisations")
        .fetch_one(&mut *transaction)
        .await?;
    if existing > 0 {
        if !replace {
            return Err(StoreError::CatalogueNotEmpty);
        }
        sqlx::query(sqlx::AssertSqlSafe(format!("truncate {CATALOGUE_TABLES} cascade")))
            .execute(&mut *transaction)
            .await?;
    }
    copy_organisations(&mut transaction, &catalogue.organisations).await?;
    copy_employers(&mut transaction, &catalogue.employers).await?;
    copy_locations(&mut transaction, &catalogue.locations).await?;
    copy_clinicians(&mut transaction, &catalogue.clinicians).await?;
    copy_marketplace(&mut transaction, catalogue).await?;
    copy_insurance(&mut transaction, catalogue).await?;
    copy_directory(&mut transaction, catalogue).await?;
    for table in [
        "organisations",
        "employers",
        "locations",
        "clinicians",
        "marketplace_categories",
        "vendors",
        "solutions",
        "solution_rates",
        "networks",
        "insurance_plans",
    ] {
        let statement = format!(
            "select setval(pg_get_serial_sequence('{table}', 'id'), coalesce((select max(id) from {table}), 0) + 1, false)"
        );
        sqlx::query(sqlx::AssertSqlSafe(statement))
            .execute(&mut *transaction)
            .await?;
    }
    transaction.commit().await?;
    Ok(())
}

async fn copy_rows(
    transaction: &mut Transaction<'_, Postgres>,
    statement: &str,
    rows: impl IntoIterator<Item = impl FnOnce(&mut CopyBuffer)>,
) -> Result<()> {
    let connection = transaction.acquire().await?;
    let mut copy = connection.copy_in_raw(statement).await?;
    let mut buffer = CopyBuffer::with_capacity(COPY_CHUNK_BYTES + 4096);
    for write_row in rows {
        write_row(&mut buffer);
        buffer.end_row();
        if buffer.len() >= COPY_CHUNK_BYTES {
            copy.send(buffer.take().into_bytes()).await?;
        }
    }
    if !buffer.is_empty() {
        copy.send(buffer.take().into_bytes()).await?;
    }
    copy.finish().await?;
    Ok(())
}

async fn copy_organisations(transaction: &mut Transaction<'_, Postgres>, organisations: &[Organisation]) -> Result<()> {
    let rows = organisations.iter().map(|organisation| {
        move |buffer: &mut CopyBuffer| {
            buffer
                .number(organisation.id)
                .text(&organisation.name)
                .text(organisation.kind.as_str());
        }
    });
    copy_rows(transaction, "copy organisations (id, name, kind) from stdin", rows).await
}

async fn copy_employers(transaction: &mut Transaction<'_, Postgres>, employers: &[Employer]) -> Result<()> {
    let rows = employers.iter().map(|employer| {
        move |buffer: &mut CopyBuffer| {
            buffer
                .number(employer.id)
                .text(&employer.company_name)
                .optional_text(employer.alias.as_deref())
                .text(employer.status.as_str());
        }
    });
    copy_rows(
        transaction,
        "copy employers (id, company_name, alias, status) from stdin",
        rows,
    )
    .await?;
    let network = employers.iter().flat_map(|employer| {
        employer.network_organisation_ids.iter().map(move |organisation_id| {
            move |buffer: &mut CopyBuffer| {
                buffer.number(employer.id).number(*organisation_id);
            }
        })
    });
    copy_rows(
        transaction,
        "copy employer_network (employer_id, organisation_id) from stdin",
        network,
    )
    .await
}

async fn copy_locations(transaction: &mut Transaction<'_, Postgres>, locations: &[Location]) -> Result<()> {
    let rows = locations.iter().map(|location| {
        move |buffer: &mut CopyBuffer| {
            let modalities = location.modalities;
            buffer
                .number(location.id)
                .number(location.organisation_id)
                .text(&location.name)
                .text(&location.location_name)
                .text(&location.address1)
                .text(&location.city)
                .text(&location.state)
                .text(&location.zip)
                .number(location.lat)
                .number(location.lng)
                .boolean(location.position_approximate)
                .text(&location.phone)
                .text(&location.website)
                .text(&location.logo)
                .text(&location.description)
                .boolean(location.accepting_new_patients)
                .boolean(location.is_virtual)
                .text_array(&location.virtual_states)
                .boolean(location.home_care)
                .boolean(modalities.at_clinic)
                .boolean(modalities.at_work)
                .boolean(modalities.in_home)
                .boolean(modalities.phone)
                .boolean(modalities.text_chat)
                .boolean(modalities.video)
                .text_array(&location.service_type_codes)
                .optional_number(location.pediatric_min_age)
                .optional_number(location.pediatric_max_age)
                .optional_text(location.provider_portal_url.as_deref())
                .optional_text(location.post_enrolment_redirect.as_deref());
            match &location.hours {
                Some(hours) => buffer.text(&hours.to_json().to_string()),
                None => buffer.null(),
            };
            buffer
                .optional_text(location.time_zone.map(|zone| zone.as_str()))
                .text_array(&location.languages.codes())
                .text_array(&location.accessibility.codes())
                .boolean(location.telehealth)
                .optional_number(location.panel_capacity)
                .optional_text(location.last_verified.map(|at| at.to_rfc3339()).as_deref());
        }
    });
    copy_rows(
        transaction,
        "copy locations (id, organisation_id, name, location_name, address1, city, state, zip, lat, lng, \
         position_approximate, phone, \
         website, logo, description, accepting_new_patients, is_virtual, virtual_states, home_care, at_clinic, \
         at_work, in_home, phone_visits, text_chat, video_visits, service_type_codes, pediatric_min_age, \
         pediatric_max_age, provider_portal_url, post_enrolment_redirect, hours, time_zone, languages, \
         accessibility, telehealth, panel_capacity, last_verified) from stdin",
        rows,
    )
    .await
}

async fn copy_clinicians(transaction: &mut Transaction<'_, Postgres>, clinicians: &[Clinician]) -> Result<()> {
    let rows = clinicians.iter().map(|clinician| {
        move |buffer: &mut CopyBuffer| {
            buffer
                .number(clinician.id)
                .text(&clinician.npi)
                .text(&clinician.first_name)
                .text(&clinician.last_name)
                .text(&clinician.credentials)
                .text(&clinician.category)
                .text(&clinician.speciality)
                .text(clinician.gender.as_str())
                .boolean(clinician.accepting_new_patients)
                .text(&clinician.description)
                .text(&clinician.logo)
                .text_array(&clinician.languages.codes())
                .boolean(clinician.telehealth)
                .optional_text(clinician.last_verified.map(|at| at.to_rfc3339()).as_deref());
        }
    });
    copy_rows(
        transaction,
        "copy clinicians (id, npi, first_name, last_name, credentials, category, speciality, gender, \
         accepting_new_patients, description, logo, languages, telehealth, last_verified) from stdin",
        rows,
    )
    .await?;
    let links = clinicians.iter().flat_map(|clinician| {
        clinician.location_ids.iter().map(move |location_id| {
            move |buffer: &mut CopyBuffer| {
                buffer.number(clinician.id).number(*location_id);
            }
        })
    });
    copy_rows(
        transaction,
        "copy clinician_locations (clinician_id, location_id) from stdin",
        links,
    )
    .await
}

async fn copy_marketplace(transaction: &mut Transaction<'_, Postgres>, catalogue: &Catalogue) -> Result<()> {
    let categories = catalogue.categories.iter().map(|category| {
        move |buffer: &mut CopyBuffer| {
            buffer
                .number(category.id)
                .text(&category.name)
                .text(&category.slug)
                .number(category.position);
        }
    });
    copy_rows(
        transaction,
        "copy marketplace_categories (id, name, slug, position) from stdin",
        categories,
    )
    .await?;
    let vendors = catalogue.vendors.iter().map(|vendor| {
        move |buffer: &mut CopyBuffer| {
            buffer
                .number(vendor.id)
                .text(&vendor.company_name)
                .number(vendor.category_id)
                .text(&vendor.logo)
                .text(&vendor.description)
                .text(&vendor.website)
                .text(&vendor.contact_first_name)
                .text(&vendor.contact_last_name)
                .text(&vendor.contact_email)
                .text(&vendor.address1);
        }
    });
    copy_rows(
        transaction,
        "copy vendors (id, company_name, category_id, logo, description, website, contact_first_name, \
         contact_last_name, contact_email, address1) from stdin",
        vendors,
    )
    .await?;
    let solutions = catalogue.solutions.iter().map(|solution| {
        move |buffer: &mut CopyBuffer| {
            buffer
                .number(solution.id)
                .text(&solution.name)
                .text(solution.kind.as_str())
                .number(solution.category_id)
                .optional_number(solution.vendor_id)
                .text(&solution.logo)
                .text(&solution.description)
                .text(&solution.definition)
                .text(&solution.website)
                .text(&solution.facilitator.first_name)
                .text(&solution.facilitator.last_name)
                .text(&solution.facilitator.email)
                .text(&solution.facilitator.address1)
                .number(i64::from(solution.tpa_basis_points));
        }
    });
    copy_rows(
        transaction,
        "copy solutions (id, name, kind, category_id, vendor_id, logo, description, definition, website, \
         facilitator_first_name, facilitator_last_name, facilitator_email, facilitator_address1, tpa_basis_points) \
         from stdin",
        solutions,
    )
    .await?;
    let rates = catalogue.solution_rates.iter().map(|rate| {
        move |buffer: &mut CopyBuffer| {
            buffer
                .number(rate.id)
                .number(rate.solution_id)
                .text(&rate.group)
                .number(rate.base_rate_cents);
        }
    });
    copy_rows(
        transaction,
        "copy solution_rates (id, solution_id, rate_group, base_rate_cents) from stdin",
        rates,
    )
    .await
}

async fn copy_insurance(transaction: &mut Transaction<'_, Postgres>, catalogue: &Catalogue) -> Result<()> {
    let payers = catalogue.payers.iter().map(|payer| {
        move |buffer: &mut CopyBuffer| {
            buffer.text(&payer.id).text(&payer.name);
        }
    });
    copy_rows(transaction, "copy payers (id, name) from stdin", payers).await?;
    let plans = catalogue.plans.iter().map(|plan| {
        move |buffer: &mut CopyBuffer| {
            buffer
                .text(&plan.plan_id)
                .text(&plan.name)
                .text(&plan.payer_id)
                .text(&plan.group_id);
        }
    });
    copy_rows(
        transaction,
        "copy plans (plan_id, name, payer_id, group_id) from stdin",
        plans,
    )
    .await?;
    let groups = catalogue.employer_groups.iter().map(|group| {
        move |buffer: &mut CopyBuffer| {
            buffer
                .number(group.employer_id)
                .text(&group.payer_id)
                .text(&group.group_number)
                .text(&group.plan_id);
        }
    });
    copy_rows(
        transaction,
        "copy employer_groups (employer_id, payer_id, group_number, plan_id) from stdin",
        groups,
    )
    .await?;
    let roster = catalogue.roster.iter().map(|member| {
        move |buffer: &mut CopyBuffer| {
            buffer
                .text(&member.payer_id)
                .text(&member.member_id)
                .text(&member.first_name)
                .text(&member.last_name)
                .text(&member.date_of_birth)
                .text(&member.plan_id)
                .text(&member.group_number)
                .text(member.relation.as_str())
                .text(&member.subscriber_member_id)
                .boolean(member.pediatric_covered);
        }
    });
    copy_rows(
        transaction,
        "copy eligibility_roster (payer_id, member_id, first_name, last_name, date_of_birth, plan_id, \
         group_number, relation, subscriber_member_id, pediatric_covered) from stdin",
        roster,
    )
    .await
}

/// Networks with their member organisations, and insurance plans with their networks.
async fn copy_directory(transaction: &mut Transaction<'_, Postgres>, catalogue: &Catalogue) -> Result<()> {
    let networks = catalogue.networks.iter().map(|network| {
        move |buffer: &mut CopyBuffer| {
            buffer
                .number(network.id)
                .text(&network.name)
                .optional_number(network.owner_organisation_id)
                .text_array(&network.coverage_states);
        }
    });
    copy_rows(
        transaction,
        "copy networks (id, name, owner_organisation_id, coverage_states) from stdin",
        networks,
    )
    .await?;
    let members = catalogue.networks.iter().flat_map(|network| {
        network.organisation_ids.iter().map(move |organisation_id| {
            move |buffer: &mut CopyBuffer| {
                buffer.number(network.id).number(*organisation_id);
            }
        })
    });
    copy_rows(
        transaction,
        "copy network_organisations (network_id, organisation_id) from stdin",
        members,
    )
    .await?;
    let plans = catalogue.insurance_plans.iter().map(|plan| {
        move |buffer: &mut CopyBuffer| {
            buffer
                .number(plan.id)
                .text(&plan.name)
                .text(&plan.product_type)
                .optional_number(plan.owned_by_organisation_id)
                .optional_number(plan.administered_by_organisation_id)
                .text_array(&plan.coverage_states);
        }
    });
    copy_rows(
        transaction,
        "copy insurance_plans (id, name, product_type, owned_by_organisation_id, administered_by_organisation_id, \
         coverage_states) from stdin",
        plans,
    )
    .await?;
    let plan_networks = catalogue.insurance_plans.iter().flat_map(|plan| {
        plan.network_ids.iter().map(move |network_id| {
            move |buffer: &mut CopyBuffer| {
                buffer.number(plan.id).number(*network_id);
            }
        })
    });
    copy_rows(
        transaction,
        "copy insurance_plan_networks (plan_id, network_id) from stdin",
        plan_networks,
    )
    .await
}
