//! `indexer import` against a real PostgreSQL: a Plan-Net file in, idempotence, dry runs,
//! refusals with their lines, `--skip-invalid`, `--full`, CSV and Bundle, and how the result
//! reaches the servers.

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::{Value, json};

use super::{index_dir, indexer_command};

fn work_dir(name: &str) -> PathBuf {
    let directory = std::env::temp_dir().join(format!("nearcare-import-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&directory);
    std::fs::create_dir_all(&directory).unwrap();
    directory
}

fn ndjson(path: &Path, resources: &[Value]) {
    let lines: Vec<String> = resources.iter().map(Value::to_string).collect();
    std::fs::write(path, lines.join("\n") + "\n").unwrap();
}

fn import(database: &testkit::TestDatabase, index: &Path, args: &[&str]) -> Output {
    indexer_command(&database.url, index)
        .arg("import")
        .args(args)
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

const NPI_A: &str = "1234567893";
const NPI_B: &str = "1245319599";

fn accepting(code: &str) -> Value {
    json!({
        "url": "http://hl7.org/fhir/us/davinci-pdex-plan-net/StructureDefinition/newpatients",
        "extension": [{ "url": "acceptingPatients", "valueCodeableConcept": { "coding": [{
            "system": "http://hl7.org/fhir/us/davinci-pdex-plan-net/CodeSystem/AcceptingPatientsCS", "code": code }] } }]
    })
}

fn organisation(id: &str, name: &str) -> Value {
    json!({ "resourceType": "Organization", "id": id, "name": name, "active": true,
            "type": [{ "coding": [{ "system": "http://hl7.org/fhir/us/davinci-pdex-plan-net/CodeSystem/OrgTypeCS", "code": "prvgrp" }] }] })
}

fn location(id: &str, organisation: &str, zip: &str, position: Option<(f64, f64)>, code: &str) -> Value {
    let mut location = json!({
        "resourceType": "Location", "id": id, "status": "active", "name": format!("Clinic {id}"),
        "managingOrganization": { "reference": format!("Organization/{organisation}") },
        "address": { "line": ["1 Main St"], "city": "Denver", "state": "CO", "postalCode": zip },
        "telecom": [{ "system": "phone", "value": "303-555-0100" }],
        "extension": [accepting(code)]
    });
    if let Some((lat, lng)) = position {
        location["position"] = json!({ "latitude": lat, "longitude": lng });
    }
    location
}

fn practitioner(id: &str, npi: &str, family: &str) -> Value {
    json!({ "resourceType": "Practitioner", "id": id, "active": true,
            "identifier": [{ "system": "http://hl7.org/fhir/sid/us-npi", "value": npi }],
            "name": [{ "family": family, "given": ["Ana"] }], "gender": "female",
            "qualification": [{ "code": { "text": "MD" } }] })
}

fn role(id: &str, practitioner: &str, location: &str) -> Value {
    json!({ "resourceType": "PractitionerRole", "id": id, "active": true,
            "practitioner": { "reference": format!("Practitioner/{practitioner}") },
            "location": [{ "reference": format!("Location/{location}") }],
            "code": [{ "text": "Physician" }], "specialty": [{ "text": "Family Medicine" }],
            "extension": [accepting("newpt")] })
}

/// A small network: two organisations, a network and a plan, three locations (one without a
/// position), their clinics, two practitioners with three roles.
fn network_file() -> Vec<Value> {
    vec![
        organisation("org-1", "Front Range Family Care"),
        organisation("payer-1", "Prairie Health Plan"),
        json!({ "resourceType": "Organization", "id": "net-1", "name": "Prairie DPC Network", "active": true,
                "meta": { "profile": ["http://hl7.org/fhir/us/davinci-pdex-plan-net/StructureDefinition/plannet-Network"] },
                "partOf": { "reference": "Organization/payer-1" } }),
        location("loc-1", "org-1", "80202", Some((39.7527, -104.9990)), "newpt"),
        location("loc-2", "org-1", "80203-1234", None, "nopt"),
        location("loc-3", "org-1", "80204", Some((39.7355, -105.0240)), "newpt"),
        json!({ "resourceType": "HealthcareService", "id": "svc-1", "active": true, "name": "Front Range Downtown",
                "location": [{ "reference": "Location/loc-1" }],
                "type": [{ "coding": [{ "system": "https://x12.org/codes/service-type-codes", "code": "BH" }] }] }),
        practitioner("prac-1", NPI_A, "Lopez"),
        practitioner("prac-2", NPI_B, "Chen"),
        role("role-1", "prac-1", "loc-1"),
        role("role-2", "prac-1", "loc-2"),
        {
            let mut with_network = role("role-3", "prac-2", "loc-3");
            with_network["extension"].as_array_mut().unwrap().push(json!({
                "url": "http://hl7.org/fhir/us/davinci-pdex-plan-net/StructureDefinition/network-reference",
                "valueReference": { "reference": "Organization/net-1" } }));
            with_network
        },
        json!({ "resourceType": "InsurancePlan", "id": "plan-1", "status": "active", "name": "Prairie Choice PPO",
                "type": [{ "coding": [{ "system": "http://hl7.org/fhir/us/davinci-pdex-plan-net/CodeSystem/InsuranceProductTypeCS", "code": "commppo" }] }],
                "ownedBy": { "reference": "Organization/payer-1" }, "administeredBy": { "reference": "Organization/payer-1" },
                "network": [{ "reference": "Organization/net-1" }] }),
    ]
}

async fn count(database: &testkit::TestDatabase, table: &str) -> i64 {
    sqlx::query_scalar(sqlx::AssertSqlSafe(format!("select count(*) from {table}")))
        .fetch_one(&database.pool)
        .await
        .unwrap()
}

#[tokio::test]
async fn a_plan_net_file_is_imported_once_and_again_changes_nothing() {
    let database = testkit::database().await.unwrap();
    let (work, index) = (work_dir("once"), index_dir("import-once"));
    let file = work.join("prairie.ndjson");
    ndjson(&file, &network_file());
    let first = import(&database, &index, &[file.to_str().unwrap()]);
    assert!(
        first.status.success(),
        "{}\n{}",
        text(&first.stdout),
        text(&first.stderr)
    );
    let printed = text(&first.stdout);
    assert!(
        printed.contains("add Location/loc-2 (\"Clinic loc-2\", approximate position: the centre of ZIP 80203)"),
        "{printed}"
    );
    assert!(printed.contains("published by a rebuild"), "{printed}");
    assert_eq!(count(&database, "locations").await, 3);
    assert_eq!(count(&database, "clinicians").await, 2);
    assert_eq!(count(&database, "clinician_locations").await, 3);
    assert_eq!(count(&database, "networks").await, 1);
    assert_eq!(count(&database, "network_organisations").await, 1);
    assert_eq!(count(&database, "insurance_plans").await, 1);
    let (approximate, accepting, name): (bool, bool, String) = sqlx::query_as(
        "select position_approximate, accepting_new_patients, name from locations where location_name = 'Clinic loc-2'",
    )
    .fetch_one(&database.pool)
    .await
    .unwrap();
    assert!(approximate);
    assert!(!accepting);
    assert_eq!(
        name, "Front Range Family Care",
        "without a service, the clinic is named after its organisation"
    );
    let services: Vec<String> =
        sqlx::query_scalar("select unnest(service_type_codes) from locations where location_name = 'Clinic loc-1'")
            .fetch_all(&database.pool)
            .await
            .unwrap();
    assert_eq!(services, ["BH"]);

    let again = import(&database, &index, &[file.to_str().unwrap()]);
    assert!(again.status.success(), "{}", text(&again.stderr));
    assert!(text(&again.stdout).starts_with("no changes"), "{}", text(&again.stdout));
    assert_eq!(
        count(&database, "directory_imports").await,
        1,
        "a re-import records nothing"
    );

    let status = indexer_command(&database.url, &index).arg("status").output().unwrap();
    let status: Value = serde_json::from_slice(&status.stdout).unwrap();
    assert_eq!(status["imports"][0]["source"], "prairie");
    assert_eq!(
        status["imports"][0]["added"], 9,
        "2 organisations, a network, 3 locations, 2 clinicians, a plan"
    );
    assert_eq!(status["imports"][0]["published"], "rebuild");
}

#[tokio::test]
async fn a_dry_run_prints_additions_changes_and_removals_and_writes_nothing() {
    let database = testkit::database().await.unwrap();
    let (work, index) = (work_dir("dry"), index_dir("import-dry"));
    let file = work.join("net.ndjson");
    ndjson(&file, &network_file());
    let dry = import(&database, &index, &[file.to_str().unwrap(), "--dry-run"]);
    assert!(dry.status.success(), "{}", text(&dry.stderr));
    assert!(text(&dry.stdout).contains("add Practitioner/prac-2 (NPI 1245319599)"));
    assert!(text(&dry.stdout).contains("dry run, nothing written"));
    assert_eq!(count(&database, "locations").await, 0);
    assert!(import(&database, &index, &[file.to_str().unwrap()]).status.success());

    let mut edited = network_file();
    edited.retain(|resource| resource["id"] != "role-2" && resource["id"] != "plan-1");
    edited[3]["telecom"][0]["value"] = json!("303-555-0199");
    ndjson(&file, &edited);
    let dry = import(&database, &index, &[file.to_str().unwrap(), "--dry-run", "--full"]);
    let printed = text(&dry.stdout);
    assert!(
        printed.contains("change Location/loc-1: telecom phone \"303-555-0100\" -> \"303-555-0199\""),
        "{printed}"
    );
    assert!(printed.contains("remove InsurancePlan/plan-1"), "{printed}");
    assert!(printed.contains("remove PractitionerRole/role-2"), "{printed}");
    assert_eq!(count(&database, "insurance_plans").await, 1, "a dry run writes nothing");

    let full = import(&database, &index, &[file.to_str().unwrap(), "--full"]);
    assert!(full.status.success(), "{}", text(&full.stderr));
    assert_eq!(count(&database, "insurance_plans").await, 0);
    assert_eq!(count(&database, "clinician_locations").await, 2);
}

#[tokio::test]
async fn every_invalid_line_is_named_and_nothing_is_written() {
    let database = testkit::database().await.unwrap();
    let (work, index) = (work_dir("refused"), index_dir("import-refused"));
    let file = work.join("bad.ndjson");
    let mut resources = network_file();
    resources[7]["identifier"][0]["value"] = json!("1234567890");
    resources[4]["address"]["postalCode"] = json!("00000");
    resources[9]["location"][0]["reference"] = json!("Location/nowhere");
    resources.push(organisation("org-1", "Duplicate"));
    let mut lines: Vec<String> = resources.iter().map(Value::to_string).collect();
    lines.insert(2, "{\"resourceType\": \"Organization\", \"id\": ".to_owned());
    std::fs::write(&file, lines.join("\n")).unwrap();
    let output = import(&database, &index, &[file.to_str().unwrap()]);
    assert!(!output.status.success());
    let errors = text(&output.stderr);
    for expected in [
        "line 3: is not JSON",
        "line 6: Location/loc-2: address.postalCode \"00000\" is not a ZIP code that exists",
        "line 9: Practitioner/prac-1: identifier[0].value \"1234567890\" is not an NPI",
        "line 11: PractitionerRole/role-1: refers to Location/nowhere, which is neither in the file nor imported before",
        "line 15: Organization/org-1: id is a duplicate: Organization/org-1 is also on line 1",
        "nothing was written",
    ] {
        assert!(errors.contains(expected), "{expected}\nin\n{errors}");
    }
    for table in [
        "organisations",
        "locations",
        "clinicians",
        "directory_identities",
        "directory_imports",
    ] {
        assert_eq!(count(&database, table).await, 0, "{table}");
    }
    // A ZIP that is not one at all.
    resources[4]["address"]["postalCode"] = json!("8020");
    ndjson(&file, &resources[..5]);
    let output = import(&database, &index, &[file.to_str().unwrap()]);
    assert!(text(&output.stderr).contains("line 5: Location/loc-2: address.postalCode \"8020\" is not a ZIP code"));
}

#[tokio::test]
async fn skip_invalid_writes_the_valid_resources_and_copies_the_rejected_lines() {
    let database = testkit::database().await.unwrap();
    let (work, index) = (work_dir("skip"), index_dir("import-skip"));
    let file = work.join("partly.ndjson");
    let rejects = work.join("rejects.ndjson");
    let mut resources = network_file();
    resources[8]["identifier"][0]["value"] = json!("1245319590");
    ndjson(&file, &resources);
    let output = import(
        &database,
        &index,
        &[file.to_str().unwrap(), "--skip-invalid", rejects.to_str().unwrap()],
    );
    assert!(output.status.success(), "{}", text(&output.stderr));
    let rejected = std::fs::read_to_string(&rejects).unwrap();
    let ids: Vec<String> = rejected
        .lines()
        .map(|line| {
            serde_json::from_str::<Value>(line).unwrap()["id"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    // The practitioner with the bad NPI, and its role with it.
    assert_eq!(ids, ["prac-2", "role-3"]);
    assert_eq!(count(&database, "clinicians").await, 1);
    assert_eq!(count(&database, "locations").await, 3);
}

#[tokio::test]
async fn a_small_attribute_change_is_published_as_a_patch_and_a_new_location_by_a_rebuild() {
    let database = testkit::database().await.unwrap();
    let (work, index) = (work_dir("publish"), index_dir("import-publish"));
    let file = work.join("net.ndjson");
    ndjson(&file, &network_file());
    assert!(import(&database, &index, &[file.to_str().unwrap()]).status.success());
    let generations = count(&database, "index_generations").await;
    let mut resources = network_file();
    resources[3]["extension"][0] = accepting("nopt");
    ndjson(&file, &resources);
    let patch = import(&database, &index, &[file.to_str().unwrap()]);
    assert!(
        text(&patch.stdout).contains("published as a patch"),
        "{}",
        text(&patch.stdout)
    );
    assert_eq!(
        count(&database, "index_generations").await,
        generations,
        "a patch publishes no generation"
    );
    // The patch is what a server reads on catalogue_changed.
    let snapshot = snapshots::load_published(&database.pool, &index)
        .await
        .unwrap()
        .unwrap();
    let patched = match snapshots::catch_up(&database.pool, &snapshot).await.unwrap() {
        snapshots::CatchUp::Patched(patched) => patched,
        _ => panic!("the change patches"),
    };
    let ordinal = (0..patched.location_count())
        .find(|ordinal| patched.location(*ordinal).location_name == "Clinic loc-1")
        .unwrap();
    assert!(!patched.location(ordinal).accepting_new_patients);

    resources.push(location("loc-4", "org-1", "80205", None, "newpt"));
    ndjson(&file, &resources);
    let rebuild = import(&database, &index, &[file.to_str().unwrap()]);
    assert!(
        text(&rebuild.stdout).contains("published by a rebuild"),
        "{}",
        text(&rebuild.stdout)
    );
    assert_eq!(count(&database, "index_generations").await, generations + 1);
}

/// The `last-verified` extension a Nearcare export writes comes back as the listing's date; a
/// new listing without one was verified by its import; a later date alone is a patch.
#[tokio::test]
async fn the_last_verified_date_is_read_from_the_file_or_set_by_the_import() {
    let database = testkit::database().await.unwrap();
    let (work, index) = (work_dir("verified"), index_dir("import-verified"));
    let file = work.join("net.ndjson");
    let verified = |at: &str| json!({ "url": "https://nearcare.example/fhir/StructureDefinition/last-verified", "valueDateTime": at });
    let mut resources = network_file();
    resources[3]["extension"]
        .as_array_mut()
        .unwrap()
        .push(verified("2026-03-04T05:06:07.123456Z"));
    resources[7]["extension"] = json!([verified("2026-02-01T10:00:00-07:00")]);
    ndjson(&file, &resources);
    let before_import = chrono::Utc::now();
    let first = import(&database, &index, &[file.to_str().unwrap()]);
    assert!(
        first.status.success(),
        "{}\n{}",
        text(&first.stdout),
        text(&first.stderr)
    );
    let location_verified = |name: &'static str| {
        sqlx::query_scalar::<_, Option<chrono::DateTime<chrono::Utc>>>(
            "select last_verified from locations where location_name = $1",
        )
        .bind(name)
        .fetch_one(&database.pool)
    };
    let clinician_verified = |family: &'static str| {
        sqlx::query_scalar::<_, Option<chrono::DateTime<chrono::Utc>>>(
            "select last_verified from clinicians where last_name = $1",
        )
        .bind(family)
        .fetch_one(&database.pool)
    };
    let from_file = location_verified("Clinic loc-1").await.unwrap().unwrap();
    assert_eq!(from_file.to_rfc3339(), "2026-03-04T05:06:07.123456+00:00");
    let by_import = location_verified("Clinic loc-2").await.unwrap().unwrap();
    assert!(by_import >= before_import - chrono::Duration::seconds(1), "{by_import}");
    let practitioner_from_file = clinician_verified("Lopez").await.unwrap().unwrap();
    assert_eq!(practitioner_from_file.to_rfc3339(), "2026-02-01T17:00:00+00:00");
    assert!(clinician_verified("Chen").await.unwrap().unwrap() >= before_import - chrono::Duration::seconds(1));

    // The same file again: the dates the import set stay (nothing changes).
    let again = import(&database, &index, &[file.to_str().unwrap()]);
    assert!(text(&again.stdout).starts_with("no changes"), "{}", text(&again.stdout));
    assert_eq!(location_verified("Clinic loc-2").await.unwrap().unwrap(), by_import);

    resources[3]["extension"][1] = verified("2026-11-20T09:00:00Z");
    ndjson(&file, &resources);
    let later = import(&database, &index, &[file.to_str().unwrap(), "--dry-run"]);
    assert!(text(&later.stdout).contains("last-verified"), "{}", text(&later.stdout));
    let later = import(&database, &index, &[file.to_str().unwrap()]);
    assert!(
        text(&later.stdout).contains("published as a patch"),
        "{}",
        text(&later.stdout)
    );
    let updated = location_verified("Clinic loc-1").await.unwrap().unwrap();
    assert_eq!(updated.to_rfc3339(), "2026-11-20T09:00:00+00:00");

    resources[3]["extension"][1] = verified("2026-11-20");
    ndjson(&file, &resources);
    let refused = import(&database, &index, &[file.to_str().unwrap()]);
    assert!(!refused.status.success());
    assert!(
        text(&refused.stderr)
            .contains("line 4: Location/loc-1: extension[1].valueDateTime \"2026-11-20\" is not a date-time"),
        "{}\n{}",
        text(&refused.stdout),
        text(&refused.stderr)
    );
}

#[tokio::test]
async fn a_csv_and_a_bundle_are_read_into_the_same_records() {
    let database = testkit::database().await.unwrap();
    let (work, index) = (work_dir("csv"), index_dir("import-csv"));
    let csv = work.join("sheet.csv");
    std::fs::write(
        &csv,
        "organization_id,organization_name,location_id,location_name,address,city,state,zip,accepting_new_patients,npi,first_name,last_name,gender,credentials,specialty\n\
         o1,Mile High DPC,l1,Downtown,1 Main St,Denver,CO,80202,yes,1234567893,Ana,Lopez,F,MD,Family Medicine\n\
         o1,Mile High DPC,l1,Downtown,1 Main St,Denver,CO,80202,yes,1245319599,Bo,Chen,M,DO,Pediatrics\n\
         o1,Mile High DPC,l2,Uptown,9 Elm St,Denver,CO,80203,no,,,,,,\n",
    )
    .unwrap();
    let output = import(&database, &index, &[csv.to_str().unwrap()]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert_eq!(count(&database, "locations").await, 2);
    assert_eq!(count(&database, "clinician_locations").await, 2);
    let approximate: i64 = sqlx::query_scalar("select count(*) from locations where position_approximate")
        .fetch_one(&database.pool)
        .await
        .unwrap();
    assert_eq!(approximate, 2, "no coordinates: both at their ZIP's centre");

    let bad = work.join("bad.csv");
    std::fs::write(
        &bad,
        "organization_id,organization_name,location_id,location_name,address,city,state,zip,accepting_new_patients,colour\n\
         o1,Mile High DPC,l1,Downtown,1 Main St,Denver,CO,80202,yes,blue\n",
    )
    .unwrap();
    let refused = import(&database, &index, &[bad.to_str().unwrap()]);
    assert!(text(&refused.stderr).contains("column \"colour\" is not one of the documented columns"));
    std::fs::write(
        &bad,
        "organization_id,organization_name,location_id,location_name,address,city,state,zip,accepting_new_patients\n\
         o1,Mile High DPC,l1,Downtown,1 Main St,Denver,CO,80202,yes\n\
         o1,Mile High DPC,l1,Downtown,2 Main St,Denver,CO,80202,yes\n",
    )
    .unwrap();
    let refused = import(&database, &index, &[bad.to_str().unwrap(), "--source", "sheet"]);
    assert!(
        text(&refused.stderr)
            .contains("line 3: Location/l1: address \"2 Main St\" differs from line 2's \"1 Main St\""),
        "{}",
        text(&refused.stderr)
    );

    // The same resources as a Bundle, from another source: new rows, each named by its line.
    let bundle = json!({ "resourceType": "Bundle", "type": "collection",
        "entry": network_file().into_iter().map(|resource| json!({ "resource": resource })).collect::<Vec<_>>() });
    let file = work.join("bundle.json");
    std::fs::write(&file, serde_json::to_string_pretty(&bundle).unwrap()).unwrap();
    let output = import(&database, &index, &[file.to_str().unwrap()]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert_eq!(count(&database, "locations").await, 5);
    // The two NPIs were in the sheet already: one clinician per NPI.
    assert_eq!(count(&database, "clinicians").await, 2);
    let mut broken = bundle.clone();
    broken["entry"][4]["resource"]["address"]["postalCode"] = json!("0");
    std::fs::write(&file, serde_json::to_string_pretty(&broken).unwrap()).unwrap();
    let refused = import(&database, &index, &[file.to_str().unwrap(), "--source", "other"]);
    let errors = text(&refused.stderr);
    // The fifth entry (loc-2) starts on the fifth line that opens an entry object.
    let entry_start = serde_json::to_string_pretty(&broken)
        .unwrap()
        .lines()
        .enumerate()
        .filter(|(_, line)| *line == "    {")
        .nth(4)
        .map(|(index, _)| index + 1)
        .unwrap();
    assert!(
        errors.contains("Location/loc-2: address.postalCode \"0\" is not a ZIP code"),
        "{errors}"
    );
    let reported: usize = errors
        .lines()
        .find(|error| error.contains("loc-2"))
        .and_then(|error| error.strip_prefix("line "))
        .and_then(|rest| rest.split(':').next())
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(
        reported, entry_start,
        "a Bundle's problem is named by the line where its entry starts"
    );
}

/// Issue 23's listing facts in Plan-Net: a Location's hours, time zone and accessibility, its
/// clinic's languages and telehealth, a practitioner's languages and telehealth.
fn with_listing_facts(mut resources: Vec<Value>) -> Vec<Value> {
    let plan_net = "http://hl7.org/fhir/us/davinci-pdex-plan-net";
    let extensions = resources[3]["extension"].as_array_mut().unwrap();
    for code in ["handiaccess", "pubtrans"] {
        extensions.push(json!({ "url": format!("{plan_net}/StructureDefinition/accessibility"),
            "valueCodeableConcept": { "coding": [{ "system": format!("{plan_net}/CodeSystem/AccessibilityCS"), "code": code }] } }));
    }
    extensions
        .push(json!({ "url": "http://hl7.org/fhir/StructureDefinition/timezone", "valueCode": "America/Denver" }));
    resources[3]["hoursOfOperation"] = json!([
        { "daysOfWeek": ["mon", "tue", "wed", "thu", "fri"], "openingTime": "08:00:00", "closingTime": "12:00:00" },
        { "daysOfWeek": ["mon", "tue", "wed", "thu", "fri"], "openingTime": "13:00:00", "closingTime": "17:30:00" },
        { "daysOfWeek": ["sat"], "allDay": true }
    ]);
    resources[6]["communication"] = json!([
        { "coding": [{ "system": "urn:ietf:bcp:47", "code": "en" }] },
        { "coding": [{ "system": "urn:ietf:bcp:47", "code": "es-MX" }] }
    ]);
    resources[6]["extension"] =
        json!([{ "url": "https://nearcare.example/fhir/StructureDefinition/telehealth", "valueBoolean": true }]);
    resources[7]["communication"] = json!([{ "coding": [{ "system": "urn:ietf:bcp:47", "code": "vi" }] }]);
    resources[7]["extension"] =
        json!([{ "url": "https://nearcare.example/fhir/StructureDefinition/telehealth", "valueBoolean": true }]);
    resources
}

#[tokio::test]
async fn hours_languages_accessibility_and_telehealth_are_read_and_kept_when_a_file_leaves_them_out() {
    let database = testkit::database().await.unwrap();
    let (work, index) = (work_dir("facts"), index_dir("import-facts"));
    let file = work.join("facts.ndjson");
    let resources = with_listing_facts(network_file());
    ndjson(&file, &resources);
    let first = import(&database, &index, &[file.to_str().unwrap()]);
    assert!(
        first.status.success(),
        "{}\n{}",
        text(&first.stdout),
        text(&first.stderr)
    );
    let location: (Value, Option<String>, Vec<String>, Vec<String>, bool) = sqlx::query_as(
        "select hours, time_zone, languages, accessibility, telehealth from locations where location_name = 'Clinic loc-1'",
    )
    .fetch_one(&database.pool)
    .await
    .unwrap();
    let weekday = json!([{ "opens": "08:00", "closes": "12:00" }, { "opens": "13:00", "closes": "17:30" }]);
    assert_eq!(
        location.0,
        json!({ "mon": weekday, "tue": weekday, "wed": weekday, "thu": weekday, "fri": weekday,
                "sat": [{ "opens": "00:00", "closes": "24:00" }], "sun": [] })
    );
    assert_eq!(location.1.as_deref(), Some("America/Denver"));
    assert_eq!(location.2, ["en", "es"]);
    assert_eq!(location.3, ["handiaccess", "pubtrans"]);
    assert!(location.4, "the clinic's telehealth extension");
    let clinician: (Vec<String>, bool) =
        sqlx::query_as("select languages, telehealth from clinicians where last_name = 'Lopez'")
            .fetch_one(&database.pool)
            .await
            .unwrap();
    assert_eq!(clinician, (vec!["vi".to_owned()], true));
    let again = import(&database, &index, &[file.to_str().unwrap()]);
    assert!(text(&again.stdout).starts_with("no changes"), "{}", text(&again.stdout));

    // A file without the facts keeps them (the clinic may have entered them in the portal)...
    ndjson(&file, &network_file());
    let without = import(&database, &index, &[file.to_str().unwrap()]);
    assert!(
        text(&without.stdout).starts_with("no changes"),
        "{}",
        text(&without.stdout)
    );
    // ...and one that changes them says which.
    let mut changed = with_listing_facts(network_file());
    changed[3]["hoursOfOperation"][2]["daysOfWeek"] = json!(["sat", "sun"]);
    changed[6]["extension"][0]["valueBoolean"] = json!(false);
    ndjson(&file, &changed);
    let dry = import(&database, &index, &[file.to_str().unwrap(), "--dry-run"]);
    let report = text(&dry.stdout);
    assert!(
        report.contains("change Location/loc-1: hoursOfOperation \"mon 08:00-12:00 13:00-17:30;")
            && report.contains("sat 00:00-24:00; sun 00:00-24:00\"; telehealth true -> false"),
        "{report}"
    );
}

#[tokio::test]
async fn bad_hours_languages_accessibility_time_zones_and_telehealth_are_named_with_line_and_path() {
    let database = testkit::database().await.unwrap();
    let (work, index) = (work_dir("bad-facts"), index_dir("import-bad-facts"));
    let file = work.join("bad.ndjson");
    let mut resources = with_listing_facts(network_file());
    resources[3]["hoursOfOperation"][0]["daysOfWeek"][1] = json!("tues");
    resources[3]["hoursOfOperation"][1]["closingTime"] = json!("25:00:00");
    resources[3]["extension"][1]["valueCodeableConcept"]["coding"][0]["code"] = json!("ramp");
    resources[3]["extension"][3]["valueCode"] = json!("Europe/Paris");
    resources[4]["hoursOfOperation"] = json!([
        { "daysOfWeek": ["mon"], "openingTime": "08:00:00", "closingTime": "12:00:00" },
        { "daysOfWeek": ["mon"], "openingTime": "11:00:00", "closingTime": "14:00:00" }
    ]);
    resources[5]["hoursOfOperation"] =
        json!([{ "daysOfWeek": ["fri"], "openingTime": "17:00:00", "closingTime": "09:00:00" }]);
    resources[6]["communication"][1]["coding"][0]["code"] = json!("klingon");
    resources[6]["extension"][0]["valueBoolean"] = json!("yes");
    resources[8]["communication"] = json!([{ "coding": [{ "system": "urn:ietf:bcp:47", "code": "xx" }] }]);
    ndjson(&file, &resources);
    let output = import(&database, &index, &[file.to_str().unwrap()]);
    assert!(!output.status.success());
    let errors = text(&output.stderr);
    for expected in [
        "line 4: Location/loc-1: hoursOfOperation[0].daysOfWeek[1] \"tues\" is not a day of the week",
        "line 4: Location/loc-1: hoursOfOperation[1].closingTime \"25:00:00\" is not a time of day on the minute",
        "line 4: Location/loc-1: extension[1].valueCodeableConcept \"ramp\" is not an AccessibilityCS code",
        "line 4: Location/loc-1: extension[3].valueCode \"Europe/Paris\" is not a time zone of US clinics",
        "line 5: Location/loc-2: hoursOfOperation on mon: has ranges that overlap (08:00-12:00 and 11:00-14:00)",
        "line 6: Location/loc-3: hoursOfOperation[0] opens at 17:00 but closes at 09:00",
        "line 7: HealthcareService/svc-1: communication[1] \"klingon\" is not a language code",
        "line 7: HealthcareService/svc-1: extension[0].valueBoolean is required: true or false",
        "line 9: Practitioner/prac-2: communication[0] \"xx\" is not a language code",
        "nothing was written",
    ] {
        assert!(errors.contains(expected), "{expected}\nin\n{errors}");
    }
    assert_eq!(count(&database, "locations").await, 0);
}

#[tokio::test]
async fn a_csv_gives_languages_accessibility_and_telehealth_and_refuses_unknown_codes() {
    let database = testkit::database().await.unwrap();
    let (work, index) = (work_dir("csv-facts"), index_dir("import-csv-facts"));
    let csv = work.join("sheet.csv");
    let header = "organization_id,organization_name,location_id,location_name,address,city,state,zip,accepting_new_patients,languages,accessibility,telehealth,npi,first_name,last_name,gender,clinician_languages,clinician_telehealth\n";
    std::fs::write(
        &csv,
        format!(
            "{header}o1,Mile High DPC,l1,Downtown,1 Main St,Denver,CO,80202,yes,en;es,handiaccess;pubtrans,yes,1234567893,Ana,Lopez,F,es;vi,no\n"
        ),
    )
    .unwrap();
    let output = import(&database, &index, &[csv.to_str().unwrap()]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let location: (Vec<String>, Vec<String>, bool) =
        sqlx::query_as("select languages, accessibility, telehealth from locations")
            .fetch_one(&database.pool)
            .await
            .unwrap();
    assert_eq!(
        location,
        (
            vec!["en".to_owned(), "es".to_owned()],
            vec!["handiaccess".to_owned(), "pubtrans".to_owned()],
            true
        )
    );
    let clinician: (Vec<String>, bool) = sqlx::query_as("select languages, telehealth from clinicians")
        .fetch_one(&database.pool)
        .await
        .unwrap();
    assert_eq!(clinician, (vec!["es".to_owned(), "vi".to_owned()], false));

    std::fs::write(
        &csv,
        format!(
            "{header}o1,Mile High DPC,l1,Downtown,1 Main St,Denver,CO,80202,yes,en;xx,ramp,maybe,1234567893,Ana,Lopez,F,zz,sometimes\n"
        ),
    )
    .unwrap();
    let refused = import(&database, &index, &[csv.to_str().unwrap()]);
    assert!(!refused.status.success());
    let errors = text(&refused.stderr);
    for expected in [
        "languages \"xx\" is not a language code",
        "accessibility \"ramp\" is not an AccessibilityCS code",
        "telehealth \"maybe\" must be yes or no",
        "clinician_languages \"zz\" is not a language code",
        "clinician_telehealth \"sometimes\" must be yes or no",
    ] {
        assert!(errors.contains(expected), "{expected}\nin\n{errors}");
    }
}
