//! `TestApp`: the application on 127.0.0.1:0 with a seeded database, one method per call.

use std::path::PathBuf;

use api::app::Application;
use api::clock::Clock;
use api::config::Config;
use api::state::AppState;
use gazetteer::Gazetteer;
use serde_json::Value;
use tokio::sync::oneshot;

pub struct TestApp {
    pub address: String,
    pub client: reqwest::Client,
    pub database: testkit::TestDatabase,
    pub local_dir: PathBuf,
    /// The app's clock (sessions, tokens, listings): tests move it forward to pass the limits.
    pub clock: Clock,
    /// The running app's state (its sessions, to mint a token for a member made in SQL).
    pub state: AppState,
    _shutdown: oneshot::Sender<()>,
}

pub struct Answer {
    pub status: u16,
    pub body: Value,
    pub headers: reqwest::header::HeaderMap,
}

impl TestApp {
    /// Seeds `clinics` generated clinics (the fixed demo records included) and starts the app.
    pub async fn spawn(clinics: usize) -> Self {
        Self::spawn_with(clinics, |_| {}).await
    }

    /// The same, with the test configuration adjusted first (limits, public URL).
    pub async fn spawn_with(clinics: usize, adjust: impl FnOnce(&mut Config)) -> Self {
        api::install_tls_provider();
        let database = testkit::database().await.expect("a test database");
        let catalogue = seed::generate(
            &seed::SeedConfig {
                clinics,
                clinicians: clinics * 4 / 5,
                seed: 5,
            },
            &Gazetteer::embedded(),
        );
        store::catalogue::load(&database.pool, &catalogue, false)
            .await
            .expect("catalogue loads");
        let local_dir = std::env::temp_dir().join(format!("nearcare-api-test-{}", database.name));
        let mut config = Config::for_tests(database.url.clone(), local_dir.clone());
        adjust(&mut config);
        let clock = config.clock.clone();
        let application = Application::build(config).await.expect("the application starts");
        let address = format!("http://{}", application.local_addr());
        let state = application.state().clone();
        let (shutdown, stopped) = oneshot::channel::<()>();
        tokio::spawn(application.run(async move {
            let _ = stopped.await;
        }));
        Self {
            address,
            client: reqwest::Client::new(),
            database,
            local_dir,
            clock,
            state,
            _shutdown: shutdown,
        }
    }

    /// An access token in a new session of `member_id` (a member written in SQL, who cannot log
    /// in).
    pub async fn session_token(&self, member_id: i64) -> String {
        let origin = api::sessions::SignInOrigin {
            device: "Test on Linux".into(),
            network: "127.0.0.0/24".into(),
        };
        let session = self.state.sessions.start(member_id, &origin).await.expect("a session");
        api::services::accounts::access_token(&self.state, member_id, None, None, session).expect("a token")
    }

    async fn answer(response: reqwest::Response) -> Answer {
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        let text = response.text().await.expect("a body");
        let body = serde_json::from_str(&text).unwrap_or(Value::String(text));
        Answer { status, body, headers }
    }

    pub async fn get(&self, path: &str) -> Answer {
        Self::answer(
            self.client
                .get(format!("{}{path}", self.address))
                .send()
                .await
                .expect("request sent"),
        )
        .await
    }

    pub async fn get_with_token(&self, path: &str, token: &str) -> Answer {
        let request = self
            .client
            .get(format!("{}{path}", self.address))
            .header("x-access-token", token);
        Self::answer(request.send().await.expect("request sent")).await
    }

    pub async fn post(&self, path: &str, body: &Value) -> Answer {
        Self::answer(
            self.client
                .post(format!("{}{path}", self.address))
                .json(body)
                .send()
                .await
                .expect("request sent"),
        )
        .await
    }

    pub async fn post_raw(&self, path: &str, content_type: &str, body: impl Into<reqwest::Body>) -> Answer {
        let request = self
            .client
            .post(format!("{}{path}", self.address))
            .header("content-type", content_type)
            .body(body);
        Self::answer(request.send().await.expect("request sent")).await
    }

    pub async fn search(&self, query: &str, filters: Value) -> Answer {
        self.post(
            &format!("/member/app/market/search?{query}"),
            &serde_json::json!({ "search": { "filters": filters } }),
        )
        .await
    }
}

impl Drop for TestApp {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.local_dir);
    }
}

/// Asserts a JSON error with the given status and code.
pub fn assert_error(answer: &Answer, status: u16, code: &str) {
    assert_eq!(answer.status, status, "{:?}", answer.body);
    assert_eq!(answer.body["code"], code, "{:?}", answer.body);
    assert!(
        answer.body["message"]
            .as_str()
            .is_some_and(|message| !message.is_empty()),
        "{:?}",
        answer.body
    );
}

/// A password that satisfies the policy.
pub const PASSWORD: &str = "Secret!123";

/// Jane Doe, the demo roster's Acme subscriber, as the eligibility form sends her.
pub fn jane_form() -> Value {
    serde_json::json!({
        "firstName": seed::demo::SUBSCRIBER_FIRST_NAME,
        "lastName": seed::demo::SUBSCRIBER_LAST_NAME,
        "dob": seed::demo::SUBSCRIBER_DATE_OF_BIRTH,
        "gender": "f",
        "memberId": seed::demo::SUBSCRIBER_MEMBER_ID,
        "planId": seed::demo::ACME_PLAN_ID,
        "payerId": seed::demo::PAYER_ID,
        "groupId": seed::demo::ACME_GROUP_NUMBER,
        "phone": "303 555 0123",
        "subscriberRelation": "Self",
        "employerId": seed::demo::ACME_EMPLOYER_ID,
    })
}

impl TestApp {
    async fn send(&self, request: reqwest::RequestBuilder, token: Option<&str>) -> Answer {
        let request = match token {
            Some(token) => request.header("x-access-token", token),
            None => request,
        };
        Self::answer(request.send().await.expect("request sent")).await
    }

    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.address)
    }

    pub async fn send_raw(
        &self,
        method: reqwest::Method,
        path: &str,
        content_type: &str,
        body: String,
        token: Option<&str>,
    ) -> Answer {
        let request = self
            .client
            .request(method, self.url(path))
            .header("content-type", content_type)
            .body(body);
        self.send(request, token).await
    }

    pub async fn post_as(&self, path: &str, body: &Value, token: Option<&str>) -> Answer {
        self.send(self.client.post(self.url(path)).json(body), token).await
    }

    pub async fn put_as(&self, path: &str, body: &Value, token: Option<&str>) -> Answer {
        self.send(self.client.put(self.url(path)).json(body), token).await
    }

    pub async fn get_as(&self, path: &str, token: Option<&str>) -> Answer {
        self.send(self.client.get(self.url(path)), token).await
    }

    // ---- One method per call ----------------------------------------------------------------

    pub async fn signup(&self, body: &Value) -> Answer {
        self.post_as("/member/app/signup", body, None).await
    }

    pub async fn signup_with_query(&self, query: &str, body: &Value) -> Answer {
        self.post_as(&format!("/member/app/signup?{query}"), body, None).await
    }

    pub async fn validate_email(&self, email: &str) -> Answer {
        self.post_as(
            "/member/app/validate/email",
            &serde_json::json!({ "email": email }),
            None,
        )
        .await
    }

    pub async fn login(&self, email: &str, password: &str) -> Answer {
        self.post_as(
            "/member/app/login",
            &serde_json::json!({ "email": email, "password": password }),
            None,
        )
        .await
    }

    pub async fn request_magic_link(&self, email: &str) -> Answer {
        self.post_as(
            "/member/app/request/magic/link",
            &serde_json::json!({ "email": email }),
            None,
        )
        .await
    }

    pub async fn login_with_magic_link(&self, token: &str, email: Option<&str>) -> Answer {
        self.post_as(
            "/member/app/login/magic/link",
            &serde_json::json!({ "token": token, "email": email }),
            None,
        )
        .await
    }

    pub async fn validate_token(&self, token: &str) -> Answer {
        self.post_as(
            "/member/app/validate/token",
            &serde_json::json!({ "token": token }),
            None,
        )
        .await
    }

    pub async fn request_password_reset(&self, email: &str) -> Answer {
        self.post_as(
            "/member/app/request/password/reset",
            &serde_json::json!({ "email": email }),
            None,
        )
        .await
    }

    pub async fn reset_password_by_email(&self, email: &str) -> Answer {
        self.get_as(&format!("/member/app/reset/password?email={email}"), None)
            .await
    }

    pub async fn password_reset(&self, password: &str, token: &str) -> Answer {
        self.post_as(
            "/member/app/password/reset",
            &serde_json::json!({ "password": password, "token": token }),
            None,
        )
        .await
    }

    pub async fn set_password(&self, password: &str, header_token: &str) -> Answer {
        self.post_as(
            "/member/app/set/password",
            &serde_json::json!({ "password": password }),
            Some(header_token),
        )
        .await
    }

    pub async fn password_validate(&self, password: &str) -> Answer {
        self.post_as(
            "/member/app/password/validate",
            &serde_json::json!({ "password": password }),
            None,
        )
        .await
    }

    pub async fn password_change(&self, access: &str, current: &str, password: &str) -> Answer {
        self.post_as(
            "/member/app/password/change",
            &serde_json::json!({ "currentPassword": current, "password": password }),
            Some(access),
        )
        .await
    }

    /// Asks to change the login email, with [`PASSWORD`] as the current password.
    pub async fn change_email(&self, access: &str, email: &str) -> Answer {
        self.post_as(
            "/member/app/change/email",
            &serde_json::json!({ "email": email, "currentPassword": PASSWORD }),
            Some(access),
        )
        .await
    }

    pub async fn confirm_account(&self, link_token: &str) -> Answer {
        self.get_as("/member/app/confirm/account", Some(link_token)).await
    }

    pub async fn send_verification(&self, email: &str) -> Answer {
        self.get_as(&format!("/member/app/send/verification?email={email}"), None)
            .await
    }

    pub async fn verify(&self, email: &str) -> Answer {
        self.get_as(&format!("/member/app/verify?email={email}"), None).await
    }

    pub async fn request_verification(&self, token: &str) -> Answer {
        self.post_as(
            "/member/app/request/verification",
            &serde_json::json!({ "token": token }),
            None,
        )
        .await
    }

    pub async fn confirm_info(&self, access: &str, form: &Value) -> Answer {
        self.post_as("/member/app/confirm/info", form, Some(access)).await
    }

    pub async fn personal_info(&self, access: &str, form: &Value) -> Answer {
        self.put_as("/member/app/personal/info", form, Some(access)).await
    }

    pub async fn eligibility(&self, access: &str, member: &Value) -> Answer {
        self.post_as("/member/app/eligibility", member, Some(access)).await
    }

    pub async fn member_info(&self, access: &str) -> Answer {
        self.get_as("/member/app/member/info", Some(access)).await
    }

    pub async fn set_notifications(&self, body: &Value, access: Option<&str>) -> Answer {
        self.put_as("/member/app/notifications", body, access).await
    }

    pub async fn home(&self, access: &str) -> Answer {
        self.get_as("/member/app/home", Some(access)).await
    }

    pub async fn account(&self, access: &str) -> Answer {
        self.get_as("/member/app/account", Some(access)).await
    }

    pub async fn plans(&self, access: Option<&str>, query: &str) -> Answer {
        self.get_as(&format!("/member/app/plans{query}"), access).await
    }

    pub async fn plan(&self, plan_id: &str) -> Answer {
        self.get_as(&format!("/member/app/plan/{plan_id}"), None).await
    }

    // ---- Reading what the server wrote -------------------------------------------------------

    /// The token of the newest link emailed to `email` with `kind` (a one-time token purpose).
    /// A requested link is written by the outbox sender after the request is answered (see
    /// `services::accounts::request_link`): this waits for it while a due request is queued.
    pub async fn link_token(&self, email: &str, kind: &str) -> String {
        let started = std::time::Instant::now();
        let link: String = loop {
            let (link, queued): (Option<String>, bool) = sqlx::query_as(
                "select (select link from email_outbox where to_email = $1 and kind = $2 order by id desc limit 1),
                        exists (select 1 from email_outbox
                                where to_email = $1 and kind = 'link_request' and next_attempt_at <= now())",
            )
            .bind(email)
            .bind(kind)
            .fetch_one(&self.database.pool)
            .await
            .unwrap();
            match link {
                Some(link) if !queued => break link,
                _ if started.elapsed() > std::time::Duration::from_secs(15) => {
                    panic!("no {kind} email to {email} (a request still queued: {queued})")
                }
                _ => tokio::time::sleep(std::time::Duration::from_millis(50)).await,
            }
        };
        let query = link.split_once('?').expect("a link with a query").1;
        query
            .split('&')
            .find_map(|pair| pair.strip_prefix("token=").or_else(|| pair.strip_prefix("magicLink=")))
            .expect("a token in the link")
            .to_owned()
    }

    /// Waits until the outbox sender has resolved every due link request (turned it into its
    /// link's message, or dropped it for an address without an account).
    pub async fn settle_link_requests(&self) {
        let started = std::time::Instant::now();
        loop {
            let queued: i64 = sqlx::query_scalar(
                "select count(*) from email_outbox where kind = 'link_request' and next_attempt_at <= now()",
            )
            .fetch_one(&self.database.pool)
            .await
            .unwrap();
            if queued == 0 {
                return;
            }
            assert!(
                started.elapsed() < std::time::Duration::from_secs(15),
                "{queued} link requests still queued"
            );
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
    }

    /// How many emails went to `email`.
    pub async fn emails_to(&self, email: &str) -> i64 {
        sqlx::query_scalar("select count(*) from email_outbox where to_email = $1")
            .bind(email)
            .fetch_one(&self.database.pool)
            .await
            .unwrap()
    }

    /// Row counts of the account tables, to check that a refused request wrote nothing.
    pub async fn account_rows(&self) -> (i64, i64, i64) {
        sqlx::query_as(
            "select (select count(*) from members), (select count(*) from one_time_tokens),
                    (select count(*) from email_outbox)",
        )
        .fetch_one(&self.database.pool)
        .await
        .unwrap()
    }

    /// Signs up, sets the password through the verification link and logs in; returns the
    /// member id and an access token.
    pub async fn registered_member(&self, email: &str) -> (i64, String) {
        let signup = self
            .signup(&serde_json::json!({ "email": email, "employerId": seed::demo::ACME_EMPLOYER_ID }))
            .await;
        assert_eq!(signup.status, 200, "{:?}", signup.body);
        let link = self.link_token(email, "verify_email").await;
        let validated = self.validate_token(&link).await;
        assert_eq!(validated.status, 200, "{:?}", validated.body);
        let new_token = validated.body["newToken"].as_str().unwrap().to_owned();
        let saved = self.password_reset(PASSWORD, &new_token).await;
        assert_eq!(saved.status, 200, "{:?}", saved.body);
        let login = self.login(email, PASSWORD).await;
        assert_eq!(login.status, 200, "{:?}", login.body);
        (
            login.body["id"].as_i64().unwrap(),
            login.body["accessToken"].as_str().unwrap().to_owned(),
        )
    }
}
