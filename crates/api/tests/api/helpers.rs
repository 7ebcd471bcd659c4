//! `TestApp`: the application on 127.0.0.1:0 with a seeded database, one method per call.

use std::path::PathBuf;

use api::app::Application;
use api::config::Config;
use gazetteer::Gazetteer;
use serde_json::Value;
use tokio::sync::oneshot;

pub struct TestApp {
    pub address: String,
    pub client: reqwest::Client,
    pub database: testkit::TestDatabase,
    pub local_dir: PathBuf,
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
        let application = Application::build(Config::for_tests(database.url.clone(), local_dir.clone()))
            .await
            .expect("the application starts");
        let address = format!("http://{}", application.local_addr());
        let (shutdown, stopped) = oneshot::channel::<()>();
        tokio::spawn(application.run(async move {
            let _ = stopped.await;
        }));
        Self {
            address,
            client: reqwest::Client::new(),
            database,
            local_dir,
            _shutdown: shutdown,
        }
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
