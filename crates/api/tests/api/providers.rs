//! The provider side (docs/provider-contract.md): provider accounts, the authorization matrix,
//! rates and fees, and a participation's whole life through the facilitator's emailed link.

use domain::participation::{Cents, calculate};
use serde_json::{Value, json};
use sha2::Digest;

use crate::helpers::{Answer, PASSWORD, TestApp, assert_error};

/// Two organisations of the seeded catalogue.
const ORGANISATION: i64 = seed::demo::DENVER_ORGANISATION_ID;
const OTHER_ORGANISATION: i64 = seed::demo::DENVER_ORGANISATION_ID + 1;

impl TestApp {
    /// Invites a provider account the way `indexer providers invite` does, sets its password
    /// through the emailed link and signs in; returns the account id and its access token.
    pub async fn provider_account(&self, organisation: i64, email: &str) -> (i64, String) {
        let invited = self
            .invite_provider(organisation, email)
            .await
            .expect("the invitation is accepted");
        assert!(!invited.organisation_name.is_empty());
        let link: String = sqlx::query_scalar(
            "select link from email_outbox where to_email = $1 and kind = 'provider_invite' order by id desc limit 1",
        )
        .bind(email)
        .fetch_one(&self.database.pool)
        .await
        .unwrap();
        assert!(link.starts_with("/auth/reset-password?token="), "{link}");
        // The pages it leads to (and /expired after them) offer a provider no member registration.
        assert!(link.ends_with("&account=provider"), "{link}");
        let token = self.link_token(email, "provider_invite").await;
        let validated = self.validate_token(&token).await;
        assert_eq!(validated.status, 200, "{:?}", validated.body);
        let saved = self
            .password_reset(PASSWORD, validated.body["newToken"].as_str().unwrap())
            .await;
        assert_eq!(saved.status, 200, "{:?}", saved.body);
        let login = self.login(email, PASSWORD).await;
        assert_eq!(login.status, 200, "{:?}", login.body);
        assert_eq!(login.body["type"], "dpc-provider");
        assert_eq!(login.body["organisationId"], organisation);
        (
            login.body["id"].as_i64().unwrap(),
            login.body["accessToken"].as_str().unwrap().to_owned(),
        )
    }

    pub async fn invite_provider(
        &self,
        organisation: i64,
        email: &str,
    ) -> Result<store::providers::Invitation, store::providers::InviteRefusal> {
        let mut transaction = self.database.pool.begin().await.unwrap();
        let invited = store::providers::invite(&mut transaction, organisation, email, "Pat", "Lee")
            .await
            .unwrap();
        transaction.commit().await.unwrap();
        invited
    }

    /// The newest review link's token sent to the facilitator `email`.
    async fn review_token(&self, email: &str) -> String {
        self.link_token(email, "participation_review").await
    }

    async fn solution(&self, id: i64, token: Option<&str>) -> Value {
        let answer = self.get_as(&format!("/dpcproviders/market/solution/{id}"), token).await;
        assert_eq!(answer.status, 200, "{:?}", answer.body);
        answer.body
    }

    async fn participate(&self, token: &str, body: &Value) -> Answer {
        self.post_as("/dpcproviders/solutions", body, Some(token)).await
    }

    async fn audit_trail(&self, participation: i64) -> Vec<(Option<String>, String, String)> {
        sqlx::query_as(
            "select from_status, to_status, actor from participation_events where participation_id = $1 order by id",
        )
        .bind(participation)
        .fetch_all(&self.database.pool)
        .await
        .unwrap()
    }
}

/// A solution with its facilitator's email and its rates' ids (cheapest first).
async fn a_solution(app: &TestApp, id: i64) -> (String, Vec<i64>) {
    let email: String = sqlx::query_scalar("select facilitator_email from solutions where id = $1")
        .bind(id)
        .fetch_one(&app.database.pool)
        .await
        .unwrap();
    let rates: Vec<i64> =
        sqlx::query_scalar("select id from solution_rates where solution_id = $1 order by base_rate_cents")
            .bind(id)
            .fetch_all(&app.database.pool)
            .await
            .unwrap();
    (email, rates)
}

#[tokio::test]
async fn an_invited_provider_sets_a_password_and_signs_in_as_their_organisation() {
    let app = TestApp::spawn(50).await;
    let (id, token) = app.provider_account(ORGANISATION, "dana@clinic.example").await;
    let me = app.get_as("/dpcproviders/me", Some(&token)).await;
    assert_eq!(me.status, 200, "{:?}", me.body);
    assert_eq!(me.body["id"], id);
    assert_eq!(me.body["email"], "dana@clinic.example");
    assert_eq!(me.body["organisation"]["id"], ORGANISATION);
    assert_eq!(me.body["organisation"]["name"], seed::demo::DENVER_ORGANISATION_NAME);
    // The magic link signs a provider in as a provider too.
    assert_eq!(app.request_magic_link("dana@clinic.example").await.status, 200);
    let magic = app
        .login_with_magic_link(&app.link_token("dana@clinic.example", "magic_link").await, None)
        .await;
    assert_eq!(magic.body["type"], "dpc-provider", "{:?}", magic.body);

    use store::providers::InviteRefusal;
    assert_eq!(
        app.invite_provider(ORGANISATION, "dana@clinic.example")
            .await
            .unwrap_err(),
        InviteRefusal::AlreadyActive("dana@clinic.example".into())
    );
    app.registered_member("member.login@example.com").await;
    assert_eq!(
        app.invite_provider(ORGANISATION, "member.login@example.com")
            .await
            .unwrap_err(),
        InviteRefusal::MemberLogin("member.login@example.com".into())
    );
    assert_eq!(
        app.invite_provider(999_999, "nobody@clinic.example").await.unwrap_err(),
        InviteRefusal::NoSuchOrganisation(999_999)
    );
    // Invited twice before choosing a password: only the newest link works.
    app.invite_provider(OTHER_ORGANISATION, "sam@clinic.example")
        .await
        .unwrap();
    let first = app.link_token("sam@clinic.example", "provider_invite").await;
    let again = app
        .invite_provider(OTHER_ORGANISATION, "sam@clinic.example")
        .await
        .unwrap();
    assert!(!again.created);
    assert_error(&app.validate_token(&first).await, 401, "link_expired");
    assert_eq!(
        app.invite_provider(ORGANISATION, "sam@clinic.example")
            .await
            .unwrap_err(),
        InviteRefusal::OtherOrganisation {
            email: "sam@clinic.example".into(),
            organisation: OTHER_ORGANISATION
        }
    );
}

#[tokio::test]
async fn a_providers_reset_link_says_it_is_a_providers_and_a_members_does_not() {
    let app = TestApp::spawn(50).await;
    app.provider_account(ORGANISATION, "reset.provider@clinic.example")
        .await;
    app.registered_member("reset.member@example.com").await;
    for (email, provider) in [
        ("reset.provider@clinic.example", true),
        ("reset.member@example.com", false),
    ] {
        assert_eq!(app.request_password_reset(email).await.status, 200);
        // The sender writes the link after the answer (a link request is resolved off the request).
        app.settle_link_requests().await;
        let link: String = sqlx::query_scalar(
            "select link from email_outbox where to_email = $1 and kind = 'password_reset' order by id desc limit 1",
        )
        .bind(email)
        .fetch_one(&app.database.pool)
        .await
        .unwrap();
        assert_eq!(link.ends_with("&account=provider"), provider, "{email}: {link}");
    }
}

#[tokio::test]
async fn each_side_is_refused_the_other_side_s_calls_and_a_provider_sees_only_their_organisation() {
    let app = TestApp::spawn(50).await;
    let (_, member) = app.registered_member("matrix.member@example.com").await;
    let (_, provider) = app.provider_account(ORGANISATION, "matrix.a@clinic.example").await;
    let (_, other) = app
        .provider_account(OTHER_ORGANISATION, "matrix.b@clinic.example")
        .await;
    let (_, rates) = a_solution(&app, 1).await;
    let provider_calls: Vec<(&str, String, Value)> = vec![
        ("GET", "/dpcproviders/me".into(), json!(null)),
        ("GET", "/member/app/solutions".into(), json!(null)),
        ("GET", "/dpcproviders/rates".into(), json!(null)),
        ("GET", "/dpcproviders/participations".into(), json!(null)),
        (
            "POST",
            "/dpcproviders/rate/calculate".into(),
            json!({ "solution": 1, "rate": rates[0] }),
        ),
        (
            "POST",
            "/dpcproviders/market/favorite".into(),
            json!({ "entity": "solution", "solution": 1, "favorite": true }),
        ),
        (
            "POST",
            "/dpcproviders/solutions/1".into(),
            json!({ "contracted": false }),
        ),
        (
            "POST",
            "/dpcproviders/solutions".into(),
            json!({ "solutionId": 1, "rate": rates[0], "contracted": true }),
        ),
    ];
    let call = |method: &'static str, path: String, body: Value, token: Option<String>| {
        let app = &app;
        async move {
            match method {
                "GET" => app.get_as(&path, token.as_deref()).await,
                _ => app.post_as(&path, &body, token.as_deref()).await,
            }
        }
    };
    for (method, path, body) in &provider_calls {
        let anonymous = call(method, path.clone(), body.clone(), None).await;
        assert_error(&anonymous, 401, "unauthorized");
        let as_member = call(method, path.clone(), body.clone(), Some(member.clone())).await;
        assert_error(&as_member, 403, "provider_only");
    }
    assert_eq!(app.get_as("/member/app/solutions", Some(&provider)).await.status, 200);
    for (method, path, body) in [
        ("GET", "/member/app/member/info", json!(null)),
        ("GET", "/member/app/home", json!(null)),
        ("GET", "/member/app/account", json!(null)),
        (
            "POST",
            "/member/app/set/provider",
            json!({ "providerId": ORGANISATION, "locationId": 1 }),
        ),
        (
            "POST",
            "/member/app/market/favorite",
            json!({ "entity": "solution", "solution": 1, "favorite": true }),
        ),
    ] {
        let answer = call(method, path.to_owned(), body, Some(provider.clone())).await;
        assert_error(&answer, 403, "member_only");
    }
    // Calls a signed-out visitor may make read a provider token as signed out.
    let categories = app.get_as("/member/app/market", Some(&provider)).await;
    assert_eq!(categories.status, 200);
    let member_view = app.solution(1, Some(&member)).await;
    assert_eq!(member_view["participation"], Value::Null);
    assert_eq!(member_view["contracted"], false);

    // Organisation A participates; B sees nothing of it and cannot stop it.
    let participated = app
        .participate(
            &provider,
            &json!({ "solutionId": 1, "rate": rates[0], "contracted": true }),
        )
        .await;
    assert_eq!(participated.status, 201, "{:?}", participated.body);
    assert_eq!(app.solution(1, Some(&provider)).await["status"], "pending");
    let seen_by_other = app.solution(1, Some(&other)).await;
    assert_eq!(seen_by_other["participation"], Value::Null);
    assert_eq!(seen_by_other["status"], "notContracted");
    let others_list = app.get_as("/dpcproviders/participations", Some(&other)).await;
    assert_eq!(others_list.body, json!([]));
    assert_error(
        &app.post_as(
            "/dpcproviders/solutions/1",
            &json!({ "contracted": false }),
            Some(&other),
        )
        .await,
        404,
        "not_participating",
    );
    assert_eq!(app.solution(1, Some(&provider)).await["status"], "pending");
    // An account moved to another organisation: its sessions (whose tokens name the old one)
    // end, on every server.
    sqlx::query("update members set organisation_id = $1 where email = 'matrix.a@clinic.example'")
        .bind(OTHER_ORGANISATION)
        .execute(&app.database.pool)
        .await
        .unwrap();
    crate::sessions::assert_ended(
        &app.wait_until_refused_at("/dpcproviders/me", &provider).await,
        "account_changed",
    );
}

#[tokio::test]
async fn rates_and_the_calculation_are_exact_cents() {
    let app = TestApp::spawn(50).await;
    let (_, provider) = app.provider_account(ORGANISATION, "rates@clinic.example").await;
    let all = app.get_as("/dpcproviders/rates", Some(&provider)).await;
    assert_eq!(all.status, 200);
    let all = all.body.as_array().unwrap().clone();
    let solutions: i64 = sqlx::query_scalar("select count(*) from solutions")
        .fetch_one(&app.database.pool)
        .await
        .unwrap();
    assert_eq!(all.len() as i64, solutions * 3, "three rate groups per solution");
    let one = app.get_as("/dpcproviders/rates?solution=2", Some(&provider)).await;
    let one = one.body.as_array().unwrap().clone();
    assert_eq!(one.len(), 3);
    assert!(
        one.iter()
            .all(|rate| rate["solution"] == 2 && rate["baseRate"].as_str().unwrap().contains('.'))
    );
    assert_error(
        &app.get_as("/dpcproviders/rates?solution=999", Some(&provider)).await,
        404,
        "not_found",
    );
    assert_error(
        &app.get_as("/dpcproviders/rates?solutions=2", Some(&provider)).await,
        400,
        "invalid_query",
    );

    let (tpa, rate_id, base): (i32, i64, i64) = sqlx::query_as(
        "select s.tpa_basis_points, r.id, r.base_rate_cents from solutions s join solution_rates r on r.solution_id = s.id
         where s.tpa_basis_points > 0 order by s.id, r.id limit 1",
    )
    .fetch_one(&app.database.pool)
    .await
    .unwrap();
    let solution: i64 = sqlx::query_scalar("select solution_id from solution_rates where id = $1")
        .bind(rate_id)
        .fetch_one(&app.database.pool)
        .await
        .unwrap();
    let answer = app
        .post_as(
            "/dpcproviders/rate/calculate",
            &json!({ "solution": solution, "rate": rate_id }),
            Some(&provider),
        )
        .await;
    assert_eq!(answer.status, 200, "{:?}", answer.body);
    let expected = calculate(Cents(base), tpa as u32);
    assert_eq!(answer.body["monthly"]["baseRate"], Cents(base).to_string());
    assert_eq!(answer.body["monthly"]["fees"], expected.monthly.fees_total.to_string());
    assert_eq!(answer.body["monthly"]["total"], expected.monthly.total.to_string());
    assert_eq!(
        answer.body["yearly"]["total"],
        (expected.monthly.total * 12).to_string()
    );
    let breakdown = answer.body["monthly"]["breakdown"].as_array().unwrap();
    assert_eq!(breakdown.len(), 3);
    assert_eq!(breakdown[1]["entity"], "Platform");
    assert_eq!(breakdown[1]["value"], "3.00");
    assert_eq!(breakdown[2]["amount"], "5.00");
    // Independent arithmetic: 3 % of the base, half up.
    assert_eq!(breakdown[1]["amount"], Cents((base * 3 + 50) / 100).to_string());

    let other_solutions_rate: i64 = sqlx::query_scalar("select id from solution_rates where solution_id <> $1 limit 1")
        .bind(solution)
        .fetch_one(&app.database.pool)
        .await
        .unwrap();
    let wrong = app
        .post_as(
            "/dpcproviders/rate/calculate",
            &json!({ "solution": solution, "rate": other_solutions_rate }),
            Some(&provider),
        )
        .await;
    assert_error(&wrong, 400, "invalid_rate");
    assert_eq!(wrong.body["field"], "rate");
    let missing = app
        .post_as(
            "/dpcproviders/rate/calculate",
            &json!({ "solution": solution }),
            Some(&provider),
        )
        .await;
    assert_error(&missing, 400, "invalid_rate");
    assert_eq!(missing.body["message"], "Please select rate first");
    let unknown = app
        .post_as(
            "/dpcproviders/rate/calculate",
            &json!({ "solution": solution, "rate": rate_id, "discount": 5 }),
            Some(&provider),
        )
        .await;
    assert_error(&unknown, 400, "invalid_body");
    assert!(
        unknown.body["message"].as_str().unwrap().contains("discount"),
        "{:?}",
        unknown.body
    );
}

#[tokio::test]
async fn a_participation_goes_from_the_contract_to_pending_active_and_stopped() {
    let app = TestApp::spawn(50).await;
    let (account, provider) = app.provider_account(ORGANISATION, "journey@clinic.example").await;
    let solution = 3;
    let (facilitator, rates) = a_solution(&app, solution).await;

    let before = app.solution(solution, Some(&provider)).await;
    assert_eq!(before["status"], "notContracted");
    assert_eq!(before["contracted"], false);
    assert_eq!(before["rates"].as_array().unwrap().len(), 3);
    assert_eq!(before["fees"].as_array().unwrap().len(), 3);
    assert_eq!(before["facilitator"]["primaryContact"]["email"], facilitator.as_str());
    // The contract is a PDF whose SHA-256 is the version the solution announces.
    let contract_path = before["contract"].as_str().unwrap().to_owned();
    let pdf = app
        .client
        .get(format!("{}{contract_path}", app.address))
        .send()
        .await
        .unwrap();
    assert_eq!(pdf.status(), 200);
    assert_eq!(pdf.headers()["content-type"], "application/pdf");
    let bytes = pdf.bytes().await.unwrap();
    assert!(bytes.starts_with(b"%PDF-"));
    let version: String = sha2::Sha256::digest(&bytes)
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect();
    assert_eq!(before["contractVersion"], version.as_str());

    let body =
        |rate: i64| json!({ "solutionId": solution, "rate": rate, "contracted": true, "contractVersion": version });
    let not_agreed = app
        .participate(
            &provider,
            &json!({ "solutionId": solution, "rate": rates[0], "contracted": false }),
        )
        .await;
    assert_error(&not_agreed, 400, "contract_not_agreed");
    let no_rate = app
        .participate(&provider, &json!({ "solutionId": solution, "contracted": true }))
        .await;
    assert_error(&no_rate, 400, "invalid_rate");
    let other_version = app
        .participate(
            &provider,
            &json!({ "solutionId": solution, "rate": rates[0], "contracted": true, "contractVersion": "0".repeat(64) }),
        )
        .await;
    assert_error(&other_version, 409, "contract_changed");
    let wrong_type = app
        .participate(
            &provider,
            &json!({ "solutionId": solution, "rate": rates[0], "contracted": "yes" }),
        )
        .await;
    assert_error(&wrong_type, 400, "invalid_field");
    assert_eq!(wrong_type.body["field"], "contracted");
    assert_eq!(app.emails_to(&facilitator).await, 0, "refused requests send nothing");

    let participated = app.participate(&provider, &body(rates[0])).await;
    assert_eq!(participated.status, 201, "{:?}", participated.body);
    let participation = participated.body["participation"]["id"].as_i64().unwrap();
    assert_eq!(participated.body["participation"]["status"], "pending");
    assert_eq!(participated.body["participation"]["contractVersion"], version.as_str());
    let agreed: (String, i64) = sqlx::query_as("select contract_sha256, agreed_by from participations where id = $1")
        .bind(participation)
        .fetch_one(&app.database.pool)
        .await
        .unwrap();
    assert_eq!(agreed, (version.clone(), account));
    assert_error(
        &app.participate(&provider, &body(rates[1])).await,
        409,
        "already_participating",
    );
    let pending = app.solution(solution, Some(&provider)).await;
    assert_eq!(
        (pending["status"].clone(), pending["contracted"].clone()),
        (json!("pending"), json!(true))
    );
    let mine = app.get_as("/member/app/solutions", Some(&provider)).await;
    assert_eq!(mine.body["solutions"].as_array().unwrap().len(), 1);
    assert_eq!(mine.body["solutions"][0]["status"], "pending");

    // The facilitator reviews through the emailed link, once.
    let review_token = app.review_token(&facilitator).await;
    let review = app
        .get_as(
            &format!("/dpcproviders/participations/review?token={review_token}"),
            None,
        )
        .await;
    assert_eq!(review.status, 200, "{:?}", review.body);
    assert_eq!(review.body["organisation"]["id"], ORGANISATION);
    assert_eq!(review.body["requestedBy"]["email"], "journey@clinic.example");
    let maybe = app
        .post(
            "/dpcproviders/participations/review",
            &json!({ "token": review_token, "decision": "maybe" }),
        )
        .await;
    assert_error(&maybe, 400, "invalid_field");
    assert_eq!(maybe.body["field"], "decision");
    let approved = app
        .post(
            "/dpcproviders/participations/review",
            &json!({ "token": review_token, "decision": "approve" }),
        )
        .await;
    assert_eq!(approved.status, 200, "{:?}", approved.body);
    assert_eq!(approved.body["status"], "active");
    let again = app
        .post(
            "/dpcproviders/participations/review",
            &json!({ "token": review_token, "decision": "decline" }),
        )
        .await;
    assert_error(&again, 410, "review_link_expired");
    assert_error(
        &app.get_as(
            &format!("/dpcproviders/participations/review?token={review_token}"),
            None,
        )
        .await,
        410,
        "review_link_expired",
    );
    let outcome: (String, Value) = sqlx::query_as(
        "select link, facts from email_outbox where to_email = 'journey@clinic.example' and kind = 'participation_outcome'",
    )
    .fetch_one(&app.database.pool)
    .await
    .unwrap();
    assert_eq!(outcome.0, format!("/dpc-providers/solutions/details/{solution}"));
    assert_eq!(outcome.1["approved"], true);
    let active = app.solution(solution, Some(&provider)).await;
    assert_eq!(active["status"], "active");
    assert_eq!(active["participation"]["status"], "active");
    assert_eq!(active["rate"]["_id"], rates[0]);
    assert!(active["rate"]["totalNet"].as_str().unwrap().contains('.'));

    // A change of rate keeps the participation active at its rate; the facilitator is asked
    // about the change (from the rate in force to the new one), and declining it keeps the rate.
    assert_error(
        &app.post_as(
            &format!("/dpcproviders/solutions/{solution}"),
            &json!({ "rate": rates[0] }),
            Some(&provider),
        )
        .await,
        400,
        "nothing_to_change",
    );
    let change_to = |rate: i64| {
        let app = &app;
        let provider = provider.clone();
        async move {
            app.post_as(
                &format!("/dpcproviders/solutions/{solution}"),
                &json!({ "rate": rate }),
                Some(&provider),
            )
            .await
        }
    };
    let changed = change_to(rates[2]).await;
    assert_eq!(changed.status, 200, "{:?}", changed.body);
    assert_eq!(changed.body["participation"]["status"], "active");
    assert_eq!(
        changed.body["participation"]["rate"]["_id"], rates[0],
        "the rate in force stays"
    );
    assert_eq!(changed.body["participation"]["requestedRate"]["_id"], rates[2]);
    let while_asked = app.solution(solution, Some(&provider)).await;
    assert_eq!(
        (while_asked["status"].as_str(), while_asked["rate"]["_id"].clone()),
        (Some("active"), json!(rates[0]))
    );
    assert_error(&change_to(rates[2]).await, 400, "nothing_to_change");
    let review_facts: Value = sqlx::query_scalar(
        "select facts from email_outbox where kind = 'participation_review' order by id desc limit 1",
    )
    .fetch_one(&app.database.pool)
    .await
    .unwrap();
    assert_eq!(review_facts["rate_change"], true, "{review_facts}");
    assert_ne!(
        review_facts["from_base_rate"], review_facts["base_rate"],
        "{review_facts}"
    );
    let second_review = app.review_token(&facilitator).await;
    assert_ne!(second_review, review_token);
    let asked = app
        .get_as(
            &format!("/dpcproviders/participations/review?token={second_review}"),
            None,
        )
        .await;
    assert_eq!(
        (
            asked.body["status"].as_str(),
            asked.body["requestedRate"]["_id"].clone()
        ),
        (Some("active"), json!(rates[2]))
    );
    assert!(asked.body["requestedMonthly"]["total"].is_string(), "{:?}", asked.body);
    let declined = app
        .post(
            "/dpcproviders/participations/review",
            &json!({ "token": second_review, "decision": "decline" }),
        )
        .await;
    assert_eq!(declined.body["status"], "active", "{:?}", declined.body);
    assert!(
        declined.body["message"].as_str().unwrap().starts_with("Declined:"),
        "{:?}",
        declined.body
    );
    let kept = app.solution(solution, Some(&provider)).await;
    assert_eq!(
        (kept["status"].as_str(), kept["rate"]["_id"].clone()),
        (Some("active"), json!(rates[0]))
    );
    assert_eq!(kept["participation"]["requestedRate"], Value::Null);
    let outcome: Value = sqlx::query_scalar(
        "select facts from email_outbox where kind = 'participation_outcome' order by id desc limit 1",
    )
    .fetch_one(&app.database.pool)
    .await
    .unwrap();
    assert_eq!(
        (outcome["rate_change"].as_bool(), outcome["approved"].as_bool()),
        (Some(true), Some(false))
    );

    // Asked again and approved: the new rate is in force.
    assert_eq!(change_to(rates[2]).await.status, 200);
    let third_review = app.review_token(&facilitator).await;
    let approved_change = app
        .post(
            "/dpcproviders/participations/review",
            &json!({ "token": third_review, "decision": "approve" }),
        )
        .await;
    assert_eq!(approved_change.body["status"], "active", "{:?}", approved_change.body);
    let moved = app.solution(solution, Some(&provider)).await;
    assert_eq!(moved["rate"]["_id"], rates[2]);
    assert_eq!(moved["participation"]["requestedRate"], Value::Null);
    let stopped_first = app
        .post_as(
            &format!("/dpcproviders/solutions/{solution}"),
            &json!({ "contracted": false }),
            Some(&provider),
        )
        .await;
    assert_eq!(
        stopped_first.body["participation"]["status"], "stopped",
        "{:?}",
        stopped_first.body
    );

    // Participating again starts a new participation, which the provider then stops.
    let renewed = app.participate(&provider, &body(rates[1])).await;
    assert_eq!(renewed.status, 201, "{:?}", renewed.body);
    let renewed_id = renewed.body["participation"]["id"].as_i64().unwrap();
    assert_ne!(renewed_id, participation);
    let stopped = app
        .post_as(
            &format!("/dpcproviders/solutions/{solution}"),
            &json!({ "contracted": false }),
            Some(&provider),
        )
        .await;
    assert_eq!(stopped.status, 200, "{:?}", stopped.body);
    assert_eq!(stopped.body["participation"]["status"], "stopped");
    assert_error(
        &app.post_as(
            &format!("/dpcproviders/solutions/{solution}"),
            &json!({ "contracted": false }),
            Some(&provider),
        )
        .await,
        404,
        "not_participating",
    );
    // The review link of a stopped request no longer works.
    let fourth_review = app.review_token(&facilitator).await;
    assert_error(
        &app.post(
            "/dpcproviders/participations/review",
            &json!({ "token": fourth_review, "decision": "approve" }),
        )
        .await,
        410,
        "review_link_expired",
    );
    let mine = app.get_as("/member/app/solutions", Some(&provider)).await;
    assert_eq!(mine.body["solutions"], json!([]));
    let card = mine.body["marketplace"]
        .as_array()
        .unwrap()
        .iter()
        .find(|card| card["id"] == solution)
        .unwrap()
        .clone();
    assert_eq!(card["status"], "inactive");
    let history = app.get_as("/dpcproviders/participations", Some(&provider)).await;
    let statuses: Vec<&str> = history
        .body
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["status"].as_str().unwrap())
        .collect();
    assert_eq!(statuses, ["stopped", "stopped"]);

    let provider_actor = format!("provider:{account}");
    let facilitator_actor = format!("facilitator:{facilitator}");
    assert_eq!(
        app.audit_trail(participation).await,
        vec![
            (None, "pending".into(), provider_actor.clone()),
            (Some("pending".into()), "active".into(), facilitator_actor.clone()),
            (Some("active".into()), "active".into(), provider_actor.clone()),
            (Some("active".into()), "active".into(), facilitator_actor.clone()),
            (Some("active".into()), "active".into(), provider_actor.clone()),
            (Some("active".into()), "active".into(), facilitator_actor),
            (Some("active".into()), "stopped".into(), provider_actor.clone()),
        ]
    );
    assert_eq!(
        app.audit_trail(renewed_id).await,
        vec![
            (None, "pending".into(), provider_actor.clone()),
            (Some("pending".into()), "stopped".into(), provider_actor),
        ]
    );
}

#[tokio::test]
async fn the_provider_solution_form_s_e_mail_is_checked_shown_to_the_facilitator_and_gets_the_decision() {
    let app = TestApp::spawn(50).await;
    let (_, provider) = app.provider_account(ORGANISATION, "owner@clinic.example").await;
    let solution = 3;
    let (facilitator, rates) = a_solution(&app, solution).await;
    let body = |contact: Value| json!({ "solutionId": solution, "rate": rates[0], "contracted": true, "contactEmail": contact });

    // The spec's messages for the provider solution form, at the field.
    for (sent, code, message) in [
        (json!("  "), "required", "E-mail is required"),
        (json!("billing@clinic"), "invalid_email", "E-mail must be valid"),
        (
            json!("😀billing@clinic.example"),
            "invalid_email",
            "E-mail must be valid",
        ),
    ] {
        let refused = app.participate(&provider, &body(sent.clone())).await;
        assert_error(&refused, 400, code);
        assert_eq!(
            (refused.body["message"].as_str(), refused.body["field"].as_str()),
            (Some(message), Some("contactEmail")),
            "{sent}"
        );
    }
    let wrong_type = app.participate(&provider, &body(json!(42))).await;
    assert_error(&wrong_type, 400, "invalid_field");
    assert_eq!(wrong_type.body["field"], "contactEmail");
    assert_eq!(app.emails_to(&facilitator).await, 0, "refused requests send nothing");

    let participated = app
        .participate(&provider, &body(json!(" Billing@Clinic.Example ")))
        .await;
    assert_eq!(participated.status, 201, "{:?}", participated.body);
    assert_eq!(
        participated.body["participation"]["contactEmail"],
        "billing@clinic.example"
    );
    let facts: Value = sqlx::query_scalar(
        "select facts from email_outbox where to_email = $1 and kind = 'participation_review' order by id desc limit 1",
    )
    .bind(&facilitator)
    .fetch_one(&app.database.pool)
    .await
    .unwrap();
    assert_eq!(facts["contact_email"], "billing@clinic.example");
    let review_token = app.review_token(&facilitator).await;
    let review = app
        .get_as(
            &format!("/dpcproviders/participations/review?token={review_token}"),
            None,
        )
        .await;
    assert_eq!(review.body["contactEmail"], "billing@clinic.example");
    assert_eq!(review.body["requestedBy"]["email"], "owner@clinic.example");

    let declined = app
        .post(
            "/dpcproviders/participations/review",
            &json!({ "token": review_token, "decision": "decline" }),
        )
        .await;
    assert_eq!(declined.status, 200, "{:?}", declined.body);
    let outcome_to: Vec<String> =
        sqlx::query_scalar("select to_email from email_outbox where kind = 'participation_outcome'")
            .fetch_all(&app.database.pool)
            .await
            .unwrap();
    assert_eq!(
        outcome_to,
        ["billing@clinic.example"],
        "the decision goes to the form's e-mail, not the account's"
    );
}

#[tokio::test]
async fn a_provider_s_favourites_are_their_own_and_junk_is_refused() {
    let app = TestApp::spawn(50).await;
    let (_, provider) = app.provider_account(ORGANISATION, "hearts@clinic.example").await;
    let (_, other) = app
        .provider_account(OTHER_ORGANISATION, "other.hearts@clinic.example")
        .await;
    let empty = app.get_as("/member/app/solutions", Some(&provider)).await;
    assert_eq!(
        (empty.body["solutions"].clone(), empty.body["favorites"].clone()),
        (json!([]), json!([]))
    );
    assert!(!empty.body["marketplace"].as_array().unwrap().is_empty());
    let marked = app
        .post_as(
            "/dpcproviders/market/favorite",
            &json!({ "entity": "solution", "solution": 4, "favorite": true }),
            Some(&provider),
        )
        .await;
    assert_eq!(marked.status, 200, "{:?}", marked.body);
    let mine = app.get_as("/member/app/solutions", Some(&provider)).await;
    assert_eq!(mine.body["favorites"].as_array().unwrap().len(), 1);
    assert_eq!(mine.body["favorites"][0]["id"], 4);
    assert_eq!(mine.body["favorites"][0]["favorite"], true);
    assert_eq!(app.solution(4, Some(&provider)).await["favorite"], true);
    assert_eq!(app.solution(4, Some(&other)).await["favorite"], false);

    for (path, body, status, code) in [
        (
            "/dpcproviders/solutions",
            json!({ "solutionId": "abc", "rate": 1, "contracted": true }),
            400,
            "invalid_field",
        ),
        (
            "/dpcproviders/solutions",
            json!({ "solutionId": 999, "rate": 1, "contracted": true }),
            404,
            "not_found",
        ),
        (
            "/dpcproviders/solutions",
            json!({ "rate": 1, "contracted": true }),
            400,
            "required",
        ),
        (
            "/dpcproviders/solutions",
            json!({ "solutionId": 1, "rate": 1, "contracted": true, "extra": 1 }),
            400,
            "invalid_body",
        ),
        ("/dpcproviders/solutions/1", json!({}), 400, "nothing_to_change"),
        (
            "/dpcproviders/solutions/1",
            json!({ "rate": 1, "contracted": false }),
            400,
            "invalid_field",
        ),
        (
            "/dpcproviders/solutions/1",
            json!({ "contracted": 0 }),
            400,
            "invalid_field",
        ),
    ] {
        let answer = app.post_as(path, &body, Some(&provider)).await;
        assert_error(&answer, status, code);
    }
    assert_error(
        &app.get("/dpcproviders/participations/review?token=junk").await,
        410,
        "review_link_expired",
    );
    // Without its token the request is malformed (400), not an expired link.
    assert_error(
        &app.post("/dpcproviders/participations/review", &json!({ "decision": "approve" }))
            .await,
        400,
        "required",
    );
    let rows: i64 = sqlx::query_scalar("select count(*) from participations")
        .fetch_one(&app.database.pool)
        .await
        .unwrap();
    assert_eq!(rows, 0, "refused requests wrote nothing");
}
