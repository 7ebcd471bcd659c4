// Migrations are embedded by `sqlx::migrate!`; a new or edited one must rebuild this crate.
fn main() {
    println!("cargo:rerun-if-changed=../../migrations");
}
