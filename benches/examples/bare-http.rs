//! The machine's HTTP floor: axum answering `GET /health` with nothing around it (no middleware,
//! no state, no database), on as many threads as Nearcare's server serves with, each with its
//! own current-thread runtime accepting from one shared listener. `make load-test` measures it
//! beside the server so that a run shows which part of a latency is the server's and which the
//! machine's: a tail the bare server has too is the host's, not Nearcare's.
//!
//! `cargo run --release -p benches --example bare-http -- PORT [THREADS]`

use axum::Router;
use axum::http::header;
use axum::routing::get;

fn main() {
    let mut args = std::env::args().skip(1);
    let port: u16 = args
        .next()
        .and_then(|port| port.parse().ok())
        .unwrap_or_else(|| usage());
    let threads: usize = match args.next() {
        Some(threads) => threads.parse().unwrap_or_else(|_| usage()),
        None => std::thread::available_parallelism().map_or(2, |cores| cores.get()),
    };
    let listener = std::net::TcpListener::bind(("127.0.0.1", port)).unwrap_or_else(|error| {
        eprintln!("bare-http: cannot listen on 127.0.0.1:{port}: {error}");
        std::process::exit(1);
    });
    listener
        .set_nonblocking(true)
        .expect("a listener can be made non-blocking");
    let router = Router::new().route(
        "/health",
        get(|| async { ([(header::CONTENT_TYPE, "application/json")], r#"{"status":"ok"}"#) }),
    );
    let serving: Vec<_> = (0..threads)
        .map(|_| {
            let listener = listener.try_clone().expect("a listener can be shared");
            let router = router.clone();
            std::thread::spawn(move || {
                let runtime = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .expect("a runtime starts");
                runtime.block_on(async move {
                    let listener = tokio::net::TcpListener::from_std(listener).expect("inside a runtime");
                    axum::serve(listener, router).await.expect("serving");
                });
            })
        })
        .collect();
    eprintln!("bare-http listening on 127.0.0.1:{port} with {threads} threads");
    for thread in serving {
        let _ = thread.join();
    }
}

fn usage() -> ! {
    eprintln!("usage: bare-http PORT [THREADS]");
    std::process::exit(2);
}
