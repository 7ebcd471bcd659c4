//! At-least-once email after a crash (issue 25, item 10): two server processes share the
//! outbox and a slow SMTP server; one is killed (SIGKILL) mid-send. The messages it had claimed
//! reach the other within seconds (its lease is short and renewed while it lives), every
//! message arrives, a duplicate is rare (only the one being sent at the kill can be), and a
//! message keeps its Message-ID whoever sends it.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use crate::fleet::{fleet_root, queue_magic_links, spawn_process_with};
use crate::smtp::SmtpSink;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_killed_mid_send_leaves_its_messages_to_another_within_seconds() {
    api::install_tls_provider();
    let database = testkit::database().await.expect("a test database");
    let sink = SmtpSink::start_slow(Duration::from_millis(30)).await;
    let root = fleet_root("outbox-crash");
    let smtp_url = sink.url();
    let environment = [
        ("NEARCARE_SMTP_URL", smtp_url.as_str()),
        ("NEARCARE_MAIL_POLL_MS", "200"),
    ];
    let mut doomed = spawn_process_with(&database.url, &root.join("doomed"), &environment);
    let survivor = spawn_process_with(&database.url, &root.join("survivor"), &environment);
    queue_magic_links(&database.pool, "crash", 300).await;

    // Mid-send: some delivered, and the doomed server holding a claimed batch with several
    // messages still to go.
    let holder = format!("{}-%", doomed.child.id());
    let held_now = || {
        sqlx::query_scalar::<_, i64>(
            "select count(*) from email_outbox
             where state = 'pending' and locked_until > now() and lease_holder like $1",
        )
        .bind(&holder)
        .fetch_one(&database.pool)
    };
    let started = Instant::now();
    while sink.messages().len() < 50 || held_now().await.unwrap() < 5 {
        assert!(started.elapsed() < Duration::from_secs(60), "sending started");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let delivered_at_kill = sink.messages().len();
    doomed.child.kill().unwrap();
    doomed.child.wait().unwrap();
    let killed = Instant::now();
    // What the dead server held: claimed, not sent, its lease still running.
    let held: Vec<String> = sqlx::query_scalar(
        "select to_email from email_outbox
         where state = 'pending' and locked_until > now() and lease_holder like $1",
    )
    .bind(&holder)
    .fetch_all(&database.pool)
    .await
    .unwrap();
    let arrived = || -> std::collections::HashSet<String> {
        sink.messages()
            .iter()
            .map(|message| message["rcpt_tos"][0].as_str().unwrap().to_owned())
            .collect()
    };
    let mut held_arrived = None;
    let all_arrived = loop {
        let recipients = arrived();
        if held_arrived.is_none() && held.iter().all(|recipient| recipients.contains(recipient)) {
            held_arrived = Some(killed.elapsed());
        }
        if recipients.len() == 300 {
            break killed.elapsed();
        }
        assert!(
            killed.elapsed() < Duration::from_secs(90),
            "{} of 300 arrived 90 s after the kill",
            recipients.len()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let held_arrived = held_arrived.unwrap_or(all_arrived);
    // Anything sent twice would have arrived by now; give the survivor a moment more.
    tokio::time::sleep(Duration::from_secs(1)).await;
    let messages = sink.messages();
    let mut copies: HashMap<String, Vec<String>> = HashMap::new();
    for message in &messages {
        copies
            .entry(message["rcpt_tos"][0].as_str().unwrap().to_owned())
            .or_default()
            .push(message["message_id"].as_str().unwrap().to_owned());
    }
    let duplicates = messages.len() - copies.len();
    eprintln!(
        "killed after {delivered_at_kill} delivered, holding {}: those arrived {held_arrived:?} after the kill, all 300 {all_arrived:?}; {duplicates} duplicate(s)",
        held.len()
    );
    assert!(!held.is_empty(), "the server was killed while it held messages");
    // The lease is 15 s, renewed while its server lives (it was 2 minutes, unrenewed).
    assert!(
        held_arrived < Duration::from_secs(45),
        "the killed server's messages waited {held_arrived:?}"
    );
    assert!(
        duplicates <= 1,
        "only the message being sent at the kill may go twice: {duplicates}"
    );
    let stored: HashMap<String, String> = sqlx::query_as("select to_email, message_id from email_outbox")
        .fetch_all(&database.pool)
        .await
        .unwrap()
        .into_iter()
        .collect();
    for (recipient, ids) in &copies {
        for id in ids {
            assert_eq!(Some(id), stored.get(recipient), "{recipient} keeps its Message-ID");
        }
    }
    let unsent: i64 = sqlx::query_scalar("select count(*) from email_outbox where state <> 'sent'")
        .fetch_one(&database.pool)
        .await
        .unwrap();
    assert_eq!(unsent, 0);
    drop(survivor);
    let _ = std::fs::remove_dir_all(&root);
}
