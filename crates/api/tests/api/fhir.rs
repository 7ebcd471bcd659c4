//! `/fhir/r4`: the CapabilityStatement, reads, searches, `near`, paging, includes and the
//! OperationOutcome errors, against the real application and snapshot.

use std::collections::HashSet;

use serde_json::Value;

use crate::helpers::TestApp;

fn entries(bundle: &Value) -> Vec<&Value> {
    bundle["entry"]
        .as_array()
        .map(|entries| entries.iter().collect())
        .unwrap_or_default()
}

fn next_link(bundle: &Value) -> Option<String> {
    bundle["link"]
        .as_array()?
        .iter()
        .find(|link| link["relation"] == "next")
        .map(|link| link["url"].as_str().unwrap().to_owned())
}

/// The path and query of an absolute link.
fn path_of(url: &str) -> String {
    let start = url.find("/fhir/r4").expect("a FHIR link");
    url[start..].to_owned()
}

fn assert_outcome(answer: &crate::helpers::Answer, status: u16, parameter: &str) {
    assert_eq!(answer.status, status, "{}", answer.body);
    assert_eq!(answer.body["resourceType"], "OperationOutcome", "{}", answer.body);
    assert_eq!(answer.body["issue"][0]["severity"], "error");
    assert_eq!(answer.body["issue"][0]["expression"][0], parameter, "{}", answer.body);
    assert!(
        answer.headers["content-type"]
            .to_str()
            .unwrap()
            .starts_with("application/fhir+json"),
        "{:?}",
        answer.headers
    );
}

#[tokio::test]
async fn metadata_lists_every_resource_with_its_profiles_and_parameters() {
    let app = TestApp::spawn(200).await;
    let answer = app.get("/fhir/r4/metadata").await;
    assert_eq!(answer.status, 200);
    let statement = &answer.body;
    assert_eq!(statement["resourceType"], "CapabilityStatement");
    assert_eq!(statement["fhirVersion"], "4.0.1");
    let resources = statement["rest"][0]["resource"].as_array().unwrap();
    let types: HashSet<&str> = resources
        .iter()
        .map(|resource| resource["type"].as_str().unwrap())
        .collect();
    for expected in [
        "Organization",
        "Location",
        "HealthcareService",
        "Practitioner",
        "PractitionerRole",
        "InsurancePlan",
    ] {
        assert!(types.contains(expected), "{expected}");
    }
    let location = resources
        .iter()
        .find(|resource| resource["type"] == "Location")
        .unwrap();
    let params: HashSet<&str> = location["searchParam"]
        .as_array()
        .unwrap()
        .iter()
        .map(|param| param["name"].as_str().unwrap())
        .collect();
    for expected in [
        "near",
        "address",
        "address-city",
        "address-state",
        "address-postalcode",
        "organization",
        "type",
        "_id",
        "_lastUpdated",
    ] {
        assert!(params.contains(expected), "{expected}");
    }
    let organisation = resources
        .iter()
        .find(|resource| resource["type"] == "Organization")
        .unwrap();
    assert!(organisation["supportedProfile"].to_string().contains("plannet-Network"));
}

#[tokio::test]
async fn a_read_answers_the_resource_with_its_profile_and_an_unknown_id_is_404() {
    let app = TestApp::spawn(200).await;
    let answer = app.get("/fhir/r4/Location/1").await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    assert_eq!(answer.body["resourceType"], "Location");
    assert_eq!(answer.body["id"], "1");
    assert!(
        answer.body["meta"]["profile"][0]
            .as_str()
            .unwrap()
            .ends_with("plannet-Location")
    );
    assert!(answer.body["meta"]["lastUpdated"].as_str().unwrap().ends_with('Z'));
    assert!(
        answer.headers["content-type"]
            .to_str()
            .unwrap()
            .starts_with("application/fhir+json")
    );

    let practitioner = app.get("/fhir/r4/Practitioner/1").await;
    assert_eq!(
        practitioner.body["identifier"][0]["system"],
        "http://hl7.org/fhir/sid/us-npi"
    );
    let network = app.get("/fhir/r4/Organization/network-1").await;
    assert_eq!(network.status, 200, "{}", network.body);
    assert_eq!(network.body["type"][0]["coding"][0]["code"], "ntwk");
    let state = app.get("/fhir/r4/Location/state-CO").await;
    assert_eq!(state.body["name"], "Colorado");

    let missing = app.get("/fhir/r4/Location/999999").await;
    assert_eq!(missing.status, 404);
    assert_eq!(missing.body["resourceType"], "OperationOutcome");
    let unknown_type = app.get("/fhir/r4/Network/1").await;
    assert_eq!(unknown_type.status, 404);
    assert!(
        unknown_type.body["issue"][0]["diagnostics"]
            .as_str()
            .unwrap()
            .contains("type=ntwk")
    );
}

/// FHIR clients ask for gzip (fhirpy's aiohttp and fhirclient's requests do by default): a page
/// of `near` comes back gzipped, and reads back as the page a client that did not ask gets.
#[tokio::test]
async fn a_page_asked_for_in_gzip_is_the_same_page_gzipped() {
    use std::io::Read as _;

    let app = TestApp::spawn(400).await;
    let url = format!(
        "{}/fhir/r4/Location?near=39.7392|-104.9903|80|km&_count=50",
        app.address
    );
    let plain = app.client.get(&url).send().await.unwrap();
    assert!(
        plain.headers().get("content-encoding").is_none(),
        "{:?}",
        plain.headers()
    );
    let plain = plain.bytes().await.unwrap();
    let zipped = app
        .client
        .get(&url)
        .header("accept-encoding", "gzip")
        .send()
        .await
        .unwrap();
    assert_eq!(zipped.headers()["content-encoding"], "gzip");
    let zipped = zipped.bytes().await.unwrap();
    assert!(
        zipped.len() * 4 < plain.len(),
        "{} bytes gzipped from {}",
        zipped.len(),
        plain.len()
    );
    let mut unzipped = Vec::new();
    flate2::read::GzDecoder::new(&zipped[..])
        .read_to_end(&mut unzipped)
        .unwrap();
    assert_eq!(
        String::from_utf8(unzipped).unwrap(),
        String::from_utf8(plain.to_vec()).unwrap()
    );
    let page: Value = serde_json::from_slice(&plain).unwrap();
    assert!(entries(&page).len() > 1, "Denver has clinics within 80 km");
}

#[tokio::test]
async fn near_is_sorted_by_true_distance_and_carries_it() {
    let app = TestApp::spawn(400).await;
    let answer = app
        .get("/fhir/r4/Location?near=39.7392|-104.9903|80|km&_count=50")
        .await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    assert_eq!(answer.body["type"], "searchset");
    let found = entries(&answer.body);
    assert!(!found.is_empty(), "Denver has clinics within 80 km");
    let mut previous = 0.0;
    for entry in &found {
        assert_eq!(entry["search"]["mode"], "match");
        let extension = &entry["search"]["extension"][0];
        assert_eq!(
            extension["url"],
            "http://hl7.org/fhir/StructureDefinition/location-distance"
        );
        assert_eq!(extension["valueDistance"]["code"], "km");
        let distance = extension["valueDistance"]["value"].as_f64().unwrap();
        // An independent great-circle distance (spherical law of cosines).
        let position = &entry["resource"]["position"];
        let (lat, lng) = (
            position["latitude"].as_f64().unwrap(),
            position["longitude"].as_f64().unwrap(),
        );
        let (phi1, phi2) = (39.7392_f64.to_radians(), lat.to_radians());
        let cosine = phi1.sin() * phi2.sin() + phi1.cos() * phi2.cos() * (lng + 104.9903).to_radians().cos();
        let expected = cosine.clamp(-1.0, 1.0).acos() * 6_371.008_8;
        assert!((distance - expected).abs() < 0.01, "{distance} vs {expected}");
        assert!(distance <= 80.0 + 1e-6);
        assert!(distance >= previous, "sorted by distance");
        previous = distance;
    }
}

#[tokio::test]
async fn next_links_page_through_every_match_once() {
    let app = TestApp::spawn(300).await;
    // Near, combined with another parameter.
    let first = "/fhir/r4/Location?near=39.7392|-104.9903|300|mi&address-state=CO&_count=7".to_owned();
    let all = app
        .get("/fhir/r4/Location?near=39.7392|-104.9903|300|mi&address-state=CO&_count=100")
        .await;
    let expected: Vec<String> = entries(&all.body)
        .iter()
        .map(|entry| entry["resource"]["id"].as_str().unwrap().to_owned())
        .collect();
    assert!(expected.len() > 7 && expected.len() < 100, "{}", expected.len());
    let mut seen = Vec::new();
    let mut path = Some(first);
    while let Some(current) = path {
        let page = app.get(&current).await;
        assert_eq!(page.status, 200, "{}", page.body);
        for entry in entries(&page.body) {
            assert_eq!(entry["resource"]["address"]["state"], "CO");
            seen.push(entry["resource"]["id"].as_str().unwrap().to_owned());
        }
        path = next_link(&page.body).map(|url| path_of(&url));
    }
    assert_eq!(seen, expected);

    // Without near: id order, every practitioner once.
    let mut ids = Vec::new();
    let mut path = Some("/fhir/r4/Practitioner?_count=100".to_owned());
    while let Some(current) = path {
        let page = app.get(&current).await;
        ids.extend(
            entries(&page.body)
                .iter()
                .map(|entry| entry["resource"]["id"].as_str().unwrap().parse::<i64>().unwrap()),
        );
        path = next_link(&page.body).map(|url| path_of(&url));
    }
    assert_eq!(ids.len(), 240);
    assert!(ids.windows(2).all(|pair| pair[0] < pair[1]));
    let count = app.get("/fhir/r4/Practitioner?_summary=count").await;
    assert_eq!(count.body["total"], 240);
    assert!(count.body.get("entry").is_none());
}

#[tokio::test]
async fn practitioner_roles_include_their_practitioner_location_and_organization() {
    let app = TestApp::spawn(200).await;
    let answer = app
        .get("/fhir/r4/PractitionerRole?practitioner=Practitioner/1&_include=PractitionerRole:practitioner,PractitionerRole:location,PractitionerRole:organization")
        .await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    let found = entries(&answer.body);
    let matches: Vec<&&Value> = found
        .iter()
        .filter(|entry| entry["search"]["mode"] == "match")
        .collect();
    assert!(!matches.is_empty());
    let included: HashSet<String> = found
        .iter()
        .filter(|entry| entry["search"]["mode"] == "include")
        .map(|entry| {
            format!(
                "{}/{}",
                entry["resource"]["resourceType"].as_str().unwrap(),
                entry["resource"]["id"].as_str().unwrap()
            )
        })
        .collect();
    for role in matches {
        let resource = &role["resource"];
        for field in ["practitioner", "organization"] {
            let reference = resource[field]["reference"].as_str().unwrap();
            assert!(included.contains(reference), "{reference} in {included:?}");
        }
        let location = resource["location"][0]["reference"].as_str().unwrap();
        assert!(included.contains(location));
    }
    let reverse = app
        .get("/fhir/r4/Practitioner?_id=1&_revinclude=PractitionerRole:practitioner")
        .await;
    assert!(
        entries(&reverse.body).iter().any(
            |entry| entry["search"]["mode"] == "include" && entry["resource"]["resourceType"] == "PractitionerRole"
        )
    );
}

#[tokio::test]
async fn an_unknown_or_malformed_parameter_is_a_400_outcome_naming_it() {
    let app = TestApp::spawn(100).await;
    assert_outcome(&app.get("/fhir/r4/Location?adress=Main").await, 400, "adress");
    assert_outcome(&app.get("/fhir/r4/Location?near=91|0|5|km").await, 400, "near");
    assert_outcome(&app.get("/fhir/r4/Location?_count=500").await, 400, "_count");
    assert_outcome(
        &app.get("/fhir/r4/Location?address-city:fuzzy=x").await,
        400,
        "address-city:fuzzy",
    );
    assert_outcome(
        &app.get("/fhir/r4/PractitionerRole?location=Practitioner/1").await,
        400,
        "location",
    );
    assert_outcome(
        &app.get("/fhir/r4/Location?_lastUpdated=yesterday").await,
        400,
        "_lastUpdated",
    );
    assert_outcome(&app.get("/fhir/r4/Location?_cursor=nonsense").await, 400, "_cursor");
    assert_outcome(
        &app.get("/fhir/r4/Location?_include=Location:organization").await,
        400,
        "_include",
    );
    assert_outcome(&app.get("/fhir/r4/Location/1?_elements=id").await, 400, "_elements");
    assert_outcome(&app.get("/fhir/r4/Location?_format=xml").await, 406, "_format");
    let xml = app
        .client
        .get(format!("{}/fhir/r4/metadata", app.address))
        .header("accept", "application/fhir+xml")
        .send()
        .await
        .unwrap();
    assert_eq!(xml.status().as_u16(), 406);
    let post = app
        .post("/fhir/r4/Location", &serde_json::json!({"resourceType": "Location"}))
        .await;
    assert_eq!(post.status, 405);
    assert_eq!(post.body["resourceType"], "OperationOutcome");
    let unknown = app.get("/fhir/r4/Location/1/_history").await;
    assert_eq!(unknown.status, 404);
    assert_eq!(unknown.body["resourceType"], "OperationOutcome");
}

#[tokio::test]
async fn format_parameters_and_json_accept_headers_are_honoured() {
    let app = TestApp::spawn(100).await;
    for query in [
        "_format=json",
        "_format=application/fhir%2Bjson",
        "_format=application/json",
    ] {
        let answer = app.get(&format!("/fhir/r4/Location/1?{query}")).await;
        assert_eq!(answer.status, 200, "{query}: {}", answer.body);
    }
    let pretty = app
        .client
        .get(format!("{}/fhir/r4/Location/1?_pretty=true", app.address))
        .header("accept", "application/fhir+json")
        .send()
        .await
        .unwrap();
    assert_eq!(pretty.status().as_u16(), 200);
    assert!(pretty.text().await.unwrap().contains("\n  \""));
}

#[tokio::test]
async fn search_parameters_filter_as_plan_net_defines_them() {
    let app = TestApp::spawn(300).await;
    let location = app.get("/fhir/r4/Location/1").await.body;
    let city = location["address"]["city"].as_str().unwrap();
    let organisation = location["managingOrganization"]["reference"]
        .as_str()
        .unwrap()
        .to_owned();
    let by_city = app
        .get(&format!("/fhir/r4/Location?address-city={}&_count=100", &city[..3]))
        .await;
    assert!(entries(&by_city.body).iter().all(|entry| {
        entry["resource"]["address"]["city"]
            .as_str()
            .unwrap()
            .to_lowercase()
            .starts_with(&city[..3].to_lowercase())
    }));
    let by_organisation = app.get(&format!("/fhir/r4/Location?organization={organisation}")).await;
    assert!(
        entries(&by_organisation.body)
            .iter()
            .any(|entry| entry["resource"]["id"] == "1")
    );
    assert!(
        entries(&by_organisation.body)
            .iter()
            .all(|entry| entry["resource"]["managingOrganization"]["reference"] == organisation.as_str())
    );
    let networks = app.get("/fhir/r4/Organization?type=ntwk").await;
    assert!(!entries(&networks.body).is_empty());
    assert!(
        entries(&networks.body)
            .iter()
            .all(|entry| entry["resource"]["id"].as_str().unwrap().starts_with("network-"))
    );
    let in_network = app
        .get("/fhir/r4/PractitionerRole?network=Organization/network-1&_count=5")
        .await;
    assert!(entries(&in_network.body).iter().all(|entry| {
        entry["resource"]["extension"]
            .to_string()
            .contains("Organization/network-1")
    }));
    let pediatrics = app
        .get("/fhir/r4/HealthcareService?service-type=https://x12.org/codes/service-type-codes|BH&_count=5")
        .await;
    assert!(
        entries(&pediatrics.body)
            .iter()
            .all(|entry| entry["resource"]["type"].to_string().contains("\"BH\""))
    );
    let future = app.get("/fhir/r4/Practitioner?_lastUpdated=gt2100-01-01").await;
    assert!(entries(&future.body).is_empty());
    let plans = app.get("/fhir/r4/InsurancePlan?type=commppo").await;
    assert!(!entries(&plans.body).is_empty());
}

/// `near` pages, reads and the marketplace profile take opening hours from the search snapshot,
/// not from PostgreSQL: hours changed in the table behind the snapshot's back (triggers off, so
/// no catch-up sees the change) are not what they show; the weeks the snapshot was built with
/// are, for every Location of the page.
#[tokio::test]
async fn near_pages_take_opening_hours_from_the_snapshot_not_postgresql() {
    use std::collections::HashMap;

    use domain::listing::WeeklyHours;
    use serde_json::json;

    let app = TestApp::spawn(200).await;
    let pool = &app.database.pool;
    let (location, organisation, lat, lng): (i64, i64, f64, f64) = sqlx::query_as(
        "select id, organisation_id, lat, lng from locations where hours is not null and not is_virtual
         order by id limit 1",
    )
    .fetch_one(pool)
    .await
    .unwrap();
    let built_with: HashMap<i64, Option<WeeklyHours>> =
        sqlx::query_as::<_, (i64, Option<Value>)>("select id, hours from locations")
            .fetch_all(pool)
            .await
            .unwrap()
            .into_iter()
            .map(|(id, hours)| (id, hours.map(|hours| WeeklyHours::from_json(&hours).unwrap())))
            .collect();
    let night_shift = json!({
        "mon": [{ "opens": "02:00", "closes": "03:00" }], "tue": [], "wed": [], "thu": [], "fri": [],
        "sat": [], "sun": [],
    });
    WeeklyHours::from_json(&night_shift).expect("a valid week");
    let mut transaction = pool.begin().await.unwrap();
    sqlx::query("set local session_replication_role = replica")
        .execute(&mut *transaction)
        .await
        .unwrap();
    let changed = sqlx::query("update locations set hours = $1")
        .bind(&night_shift)
        .execute(&mut *transaction)
        .await
        .unwrap();
    assert_eq!(changed.rows_affected() as usize, built_with.len());
    transaction.commit().await.unwrap();

    let hours_of_operation = |id: i64| {
        json!(
            built_with[&id]
                .as_ref()
                .map(fhir::hours::hours_of_operation)
                .unwrap_or_default()
        )
    };
    let page = app
        .get(&format!("/fhir/r4/Location?near={lat}|{lng}|200|km&_count=100"))
        .await;
    assert_eq!(page.status, 200, "{}", page.body);
    let found = entries(&page.body);
    assert!(found.len() > 1, "{}", page.body);
    let mut with_hours = 0;
    for entry in &found {
        let resource = &entry["resource"];
        let id: i64 = resource["id"].as_str().unwrap().parse().unwrap();
        let shown = resource.get("hoursOfOperation").cloned().unwrap_or(json!([]));
        assert_eq!(shown, hours_of_operation(id), "Location/{id}");
        with_hours += usize::from(shown != json!([]));
    }
    assert!(with_hours > 0, "the page shows some hours: {}", page.body);
    assert!(
        found
            .iter()
            .any(|entry| entry["resource"]["id"].as_str() == Some(&*location.to_string())),
        "{}",
        page.body
    );

    let read = app.get(&format!("/fhir/r4/Location/{location}")).await;
    assert_eq!(read.body["hoursOfOperation"], hours_of_operation(location));
    let profile = app
        .get(&format!(
            "/member/app/market/provider/{organisation}?locationId={location}"
        ))
        .await;
    assert_eq!(profile.status, 200, "{}", profile.body);
    assert_eq!(
        WeeklyHours::from_json(&profile.body["hours"]).ok(),
        built_with[&location],
        "{}",
        profile.body["hours"]
    );
}

/// Issue 23's listing facts, as a clinic edits them in the portal, in the Plan-Net resources: the
/// Location's hours (from the snapshot, patched by the edit), time zone and accessibility, the
/// clinic's languages and telehealth, the clinician's; an edit reaches the FHIR reads.
#[tokio::test]
async fn listing_facts_are_emitted_as_plan_net_and_an_edit_reaches_them() {
    use serde_json::json;
    let app = TestApp::spawn(60).await;
    let location = seed::demo::DENVER_LOCATION_ID;
    let (_, token) = app
        .provider_account(seed::demo::DENVER_ORGANISATION_ID, "dana@frontrange.example")
        .await;
    let clinician: i64 =
        sqlx::query_scalar("select clinician_id from clinician_locations where location_id = $1 limit 1")
            .bind(location)
            .fetch_one(&app.database.pool)
            .await
            .unwrap();
    // Read once first, so the edit must reach an answer that was rendered (and kept) before it.
    let path = format!("/fhir/r4/Location/{location}");
    assert_eq!(app.get(&path).await.status, 200);
    let edited = app
        .edit_location(
            &token,
            location,
            &json!({
                "hours": {
                    "mon": [{ "opens": "08:00", "closes": "12:00" }, { "opens": "13:00", "closes": "17:00" }],
                    "tue": [{ "opens": "08:00", "closes": "12:00" }, { "opens": "13:00", "closes": "17:00" }],
                    "sat": [{ "opens": "20:00", "closes": "24:00" }],
                },
                "timeZone": "America/Denver",
                "languages": ["en", "es"],
                "accessibility": ["handiaccess", "pubtrans"],
                "telehealth": true,
            }),
        )
        .await;
    assert_eq!(edited.status, 200, "{:?}", edited.body);
    let edited = app
        .edit_clinician(
            &token,
            clinician,
            &json!({ "languages": ["vi", "en"], "telehealth": true }),
        )
        .await;
    assert_eq!(edited.status, 200, "{:?}", edited.body);

    let read = app
        .eventually(
            "the Location carries the new hours",
            || app.get(&path),
            |answer| answer.body["hoursOfOperation"].to_string().contains("sat"),
        )
        .await;
    let resource = &read.body;
    assert_eq!(
        resource["hoursOfOperation"],
        json!([
            { "daysOfWeek": ["mon", "tue"], "openingTime": "08:00:00", "closingTime": "12:00:00" },
            { "daysOfWeek": ["mon", "tue"], "openingTime": "13:00:00", "closingTime": "17:00:00" },
            { "daysOfWeek": ["sat"], "openingTime": "20:00:00", "closingTime": "23:59:59" },
        ])
    );
    // The marketplace profile reads the same snapshot: the patch reached it too.
    let profile = app
        .get(&format!(
            "/member/app/market/provider/{}?locationId={location}",
            seed::demo::DENVER_ORGANISATION_ID
        ))
        .await;
    assert_eq!(profile.status, 200, "{}", profile.body);
    assert_eq!(
        profile.body["hours"]["sat"],
        json!([{ "opens": "20:00", "closes": "24:00" }]),
        "{}",
        profile.body["hours"]
    );
    assert_eq!(profile.body["hours"]["sun"], json!([]));
    let extensions = resource["extension"].as_array().unwrap();
    let accessibility: Vec<&Value> = extensions
        .iter()
        .filter(|extension| {
            extension["url"] == "http://hl7.org/fhir/us/davinci-pdex-plan-net/StructureDefinition/accessibility"
        })
        .map(|extension| &extension["valueCodeableConcept"]["coding"][0])
        .collect();
    assert_eq!(
        accessibility,
        [
            &json!({ "system": "http://hl7.org/fhir/us/davinci-pdex-plan-net/CodeSystem/AccessibilityCS", "code": "handiaccess", "display": "handicap accessible" }),
            &json!({ "system": "http://hl7.org/fhir/us/davinci-pdex-plan-net/CodeSystem/AccessibilityCS", "code": "pubtrans", "display": "public transit options" }),
        ]
    );
    assert!(
        extensions.contains(
            &json!({ "url": "http://hl7.org/fhir/StructureDefinition/timezone", "valueCode": "America/Denver" })
        ),
        "{resource}"
    );
    // A search renders the same resource as the read.
    let searched = app.get(&format!("/fhir/r4/Location?_id={location}")).await;
    assert_eq!(&searched.body["entry"][0]["resource"], resource);

    let service = app.get(&format!("/fhir/r4/HealthcareService/{location}")).await.body;
    assert_eq!(
        service["communication"],
        json!([
            { "coding": [{ "system": "urn:ietf:bcp:47", "code": "en", "display": "English" }], "text": "English" },
            { "coding": [{ "system": "urn:ietf:bcp:47", "code": "es", "display": "Spanish" }], "text": "Spanish" },
        ])
    );
    let service_extensions = service["extension"].as_array().unwrap();
    assert!(
        service_extensions.contains(
            &json!({ "url": "https://nearcare.example/fhir/StructureDefinition/telehealth", "valueBoolean": true })
        ),
        "{service}"
    );
    assert!(
        service_extensions.iter().any(|extension| {
            extension["url"] == "http://hl7.org/fhir/us/davinci-pdex-plan-net/StructureDefinition/delivery-method"
                && extension["extension"][0]["valueCodeableConcept"]["coding"][0]["code"] == "virtual"
        }),
        "telehealth is a virtual delivery method too: {service}"
    );
    let practitioner_path = format!("/fhir/r4/Practitioner/{clinician}");
    let practitioner = app
        .eventually(
            "the Practitioner carries the new languages",
            || app.get(&practitioner_path),
            |answer| {
                answer.body["communication"]
                    .as_array()
                    .is_some_and(|languages| languages.len() == 2)
            },
        )
        .await
        .body;
    let codes: Vec<&Value> = practitioner["communication"]
        .as_array()
        .unwrap()
        .iter()
        .map(|concept| &concept["coding"][0]["code"])
        .collect();
    assert_eq!(codes, [&json!("en"), &json!("vi")]);
    assert!(
        practitioner["extension"].as_array().unwrap().contains(
            &json!({ "url": "https://nearcare.example/fhir/StructureDefinition/telehealth", "valueBoolean": true })
        ),
        "{practitioner}"
    );
}

/// `Location?accessibility=` and `Location?language=` (ours) find the clinics with that fact, as
/// PostgreSQL lists them, alone and with `near`.
#[tokio::test]
async fn locations_are_searched_by_accessibility_and_language() {
    let app = TestApp::spawn(200).await;
    for (parameter, value, column) in [
        ("accessibility", "handiaccess", "accessibility"),
        ("language", "es", "languages"),
    ] {
        let mut expected: Vec<String> = sqlx::query_scalar::<_, i64>(sqlx::AssertSqlSafe(format!(
            "select id from locations where $1 = any({column}) order by id"
        )))
        .bind(value)
        .fetch_all(&app.database.pool)
        .await
        .unwrap()
        .into_iter()
        .map(|id| id.to_string())
        .collect();
        assert!(!expected.is_empty(), "the seed has clinics with {parameter} {value}");
        let mut found = Vec::new();
        let mut path = Some(format!("/fhir/r4/Location?{parameter}={value}&_count=100"));
        while let Some(next) = path {
            let bundle = app.get(&next).await;
            assert_eq!(bundle.status, 200, "{}", bundle.body);
            found.extend(
                entries(&bundle.body)
                    .iter()
                    .map(|entry| entry["resource"]["id"].as_str().unwrap().to_owned()),
            );
            path = next_link(&bundle.body).map(|url| path_of(&url));
        }
        found.sort_by_key(|id| id.parse::<i64>().unwrap());
        expected.sort_by_key(|id| id.parse::<i64>().unwrap());
        assert_eq!(found, expected, "{parameter}={value}");
        // With near: only those, nearest first.
        let near = app
            .get(&format!(
                "/fhir/r4/Location?{parameter}={value}&near=39.7392|-104.9903|3000|km&_count=10"
            ))
            .await;
        assert_eq!(near.status, 200, "{}", near.body);
        assert!(!entries(&near.body).is_empty(), "{parameter}={value} near Denver");
        for entry in entries(&near.body) {
            assert!(expected.contains(&entry["resource"]["id"].as_str().unwrap().to_owned()));
        }
    }
    let unknown = app.get("/fhir/r4/Location?accessibility:exact=x").await;
    assert_outcome(&unknown, 400, "accessibility:exact");
}
