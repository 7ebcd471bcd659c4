//! The development mailbox shows live login links, so it is served only when asked for on a
//! server whose listen address and public URL are both loopback, and announced only then
//! (issue 25, item 4). Real server processes, their start-up logs read.

use crate::fleet::{fleet_root, spawn_process_with};

#[tokio::test]
async fn the_mailbox_is_served_and_announced_only_when_asked_for_on_a_loopback_public_url() {
    let database = testkit::database().await.expect("a test database");
    let root = fleet_root("mailbox");
    let client = reqwest::Client::new();
    for (name, environment, served) in [
        // A loopback server behind a local reverse proxy: the proxy forwards anyone to it.
        (
            "behind-a-proxy",
            vec![
                ("NEARCARE_DEV_MAILBOX", "true"),
                ("NEARCARE_PUBLIC_URL", "https://nearcare.example"),
            ],
            false,
        ),
        ("not-asked-for", vec![], false),
        ("the-demo", vec![("NEARCARE_DEV_MAILBOX", "true")], true),
    ] {
        let server = spawn_process_with(&database.url, &root.join(name), &environment);
        let page = client
            .get(format!("{}/dev/mailbox", server.address))
            .send()
            .await
            .unwrap();
        assert_eq!(page.status() == 200, served, "{name}: {}", page.status());
        let log = server.log.lock().unwrap().join("\n");
        assert_eq!(log.contains("/dev/mailbox"), served, "{name}: {log}");
        assert!(log.contains("emails are"), "{name} says what becomes of emails: {log}");
    }
    let _ = std::fs::remove_dir_all(&root);
}
