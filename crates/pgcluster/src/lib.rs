//! A private PostgreSQL cluster in a project-local folder, for when no `DATABASE_URL` is given.
//!
//! The cluster is initialised on first use (`initdb`), started with `pg_ctl` on a free loopback
//! port and reused by later callers while it runs. PostgreSQL refuses to run as root, so when
//! the current user is root every server binary runs as the `postgres` system user on a data
//! folder that user owns.

use std::fs;
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

use anyhow::{Context, Result, bail};

/// Where Debian puts the PostgreSQL 15 server binaries.
pub const DEFAULT_BIN_DIR: &str = "/usr/lib/postgresql/15/bin";

/// A running private cluster. Dropping it leaves the server running; call [`PrivateCluster::stop`].
#[derive(Debug, Clone)]
pub struct PrivateCluster {
    root: PathBuf,
    bin_dir: PathBuf,
    port: u16,
    started_here: bool,
}

impl PrivateCluster {
    /// Starts the cluster kept in `root` (creating it on first use), or attaches to it when it
    /// is already running.
    pub fn start(root: &Path) -> Result<Self> {
        let bin_dir = std::env::var_os("PG_BIN_DIR").map_or_else(|| PathBuf::from(DEFAULT_BIN_DIR), PathBuf::from);
        if !bin_dir.join("initdb").exists() {
            bail!(
                "PostgreSQL server binaries not found in {} (set PG_BIN_DIR)",
                bin_dir.display()
            );
        }
        fs::create_dir_all(root).with_context(|| format!("creating {}", root.display()))?;
        let root = root.canonicalize()?;
        // Tests and the run command may start the same cluster at once: one initialises and
        // starts it while the others wait, then attach.
        let lock_file = fs::File::create(root.join("start.lock"))?;
        lock_file.lock().context("locking the cluster folder")?;
        let cluster = Self {
            root,
            bin_dir,
            port: 0,
            started_here: false,
        };
        // A running server already reaches its files; a `chown -R` under it would race with the
        // files it creates and removes (test databases come and go) and fail.
        if let Some(port) = cluster.running_port() {
            tracing::info!(port, "attached to the running private postgres");
            return Ok(Self { port, ..cluster });
        }
        if running_as_root() {
            cluster.grant_postgres_user_access()?;
        }
        if !cluster.data_dir().join("PG_VERSION").exists() {
            cluster.initdb()?;
        }
        cluster.start_server()
    }

    /// Returns the connection URL of `database` on this cluster.
    pub fn url(&self, database: &str) -> String {
        format!("postgres://postgres@127.0.0.1:{}/{database}", self.port)
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// True when this call started the server (rather than attaching to a running one).
    pub fn started_here(&self) -> bool {
        self.started_here
    }

    /// Stops the server (fast shutdown: open sessions are rolled back).
    pub fn stop(&self) -> Result<()> {
        let data_dir = self.data_dir();
        let output = self.pg_command("pg_ctl", &["-D", path_str(&data_dir)?, "-m", "fast", "-w", "stop"])?;
        if !output.status.success() && self.running_port().is_some() {
            bail!("pg_ctl stop failed: {}", String::from_utf8_lossy(&output.stderr));
        }
        Ok(())
    }

    fn data_dir(&self) -> PathBuf {
        self.root.join("data")
    }

    fn port_file(&self) -> PathBuf {
        self.root.join("port")
    }

    fn initdb(&self) -> Result<()> {
        let data_dir = self.data_dir();
        let output = self.pg_command(
            "initdb",
            &[
                "-D",
                path_str(&data_dir)?,
                "-A",
                "trust",
                "-U",
                "postgres",
                "-E",
                "UTF8",
                "--no-locale",
                "--no-sync",
            ],
        )?;
        if !output.status.success() {
            bail!("initdb failed: {}", String::from_utf8_lossy(&output.stderr));
        }
        Ok(())
    }

    /// Returns the port of a server already running on this data folder, if one answers.
    fn running_port(&self) -> Option<u16> {
        let pid_file = fs::read_to_string(self.data_dir().join("postmaster.pid")).ok()?;
        let pid: u32 = pid_file.lines().next()?.trim().parse().ok()?;
        if !Path::new(&format!("/proc/{pid}")).exists() {
            return None;
        }
        let port: u16 = fs::read_to_string(self.port_file()).ok()?.trim().parse().ok()?;
        let address = SocketAddr::from(([127, 0, 0, 1], port));
        TcpStream::connect_timeout(&address, Duration::from_secs(1))
            .ok()
            .map(|_| port)
    }

    /// Starts a server stopped with [`PrivateCluster::stop`] again, on the same port, so
    /// clients holding its URL reconnect (outage tests).
    pub fn start_again(&self) -> Result<()> {
        let output = self.pg_ctl_start(self.port)?;
        if !output.status.success() {
            bail!("pg_ctl start failed: {}", String::from_utf8_lossy(&output.stderr));
        }
        Ok(())
    }

    fn pg_ctl_start(&self, port: u16) -> Result<Output> {
        let data_dir = self.data_dir();
        let log_file = self.root.join("server.log");
        let options = format!(
            "-p {port} -c listen_addresses=127.0.0.1 -c unix_socket_directories= -c fsync=off \
             -c synchronous_commit=off -c full_page_writes=off -c max_connections=200 -c shared_buffers=256MB"
        );
        self.pg_command(
            "pg_ctl",
            &[
                "-D",
                path_str(&data_dir)?,
                "-l",
                path_str(&log_file)?,
                "-w",
                "-t",
                "60",
                "-o",
                &options,
                "start",
            ],
        )
    }

    fn start_server(self) -> Result<Self> {
        let data_dir = self.data_dir();
        let log_file = self.root.join("server.log");
        // A port taken between our probe and the server's bind makes pg_ctl fail; try again.
        for _attempt in 0..5 {
            let port = free_loopback_port()?;
            let output = self.pg_ctl_start(port)?;
            if output.status.success() {
                fs::write(self.port_file(), port.to_string())?;
                tracing::info!(port, data = %data_dir.display(), "started private postgres");
                return Ok(Self {
                    port,
                    started_here: true,
                    ..self
                });
            }
            tracing::warn!(port, stderr = %String::from_utf8_lossy(&output.stderr), "pg_ctl start failed, retrying");
        }
        let log_tail = fs::read_to_string(&log_file).unwrap_or_default();
        let last_lines: Vec<&str> = log_tail.lines().rev().take(5).collect();
        bail!(
            "could not start PostgreSQL; last lines of {}: {:?}",
            log_file.display(),
            last_lines
        )
    }

    fn pg_command(&self, program: &str, args: &[&str]) -> Result<Output> {
        let binary = self.bin_dir.join(program);
        let mut command = if running_as_root() {
            let mut command = Command::new("runuser");
            command.args(["-u", "postgres", "--"]).arg(&binary);
            command
        } else {
            Command::new(&binary)
        };
        command.args(args).env_remove("PGDATA");
        command
            .output()
            .with_context(|| format!("running {}", binary.display()))
    }

    /// Lets the `postgres` user own the cluster folder and reach it through its ancestors.
    fn grant_postgres_user_access(&self) -> Result<()> {
        let status = Command::new("chown")
            .args(["-R", "postgres:postgres"])
            .arg(&self.root)
            .status()?;
        if !status.success() {
            bail!("chown of {} to postgres failed", self.root.display());
        }
        // Folders made by `mktemp -d` are 0700; the server needs to traverse them (execute only).
        for ancestor in self.root.ancestors().skip(1) {
            let metadata = fs::metadata(ancestor)?;
            let mode = metadata.permissions().mode();
            if mode & 0o001 == 0 {
                fs::set_permissions(ancestor, fs::Permissions::from_mode(mode | 0o001))?;
            }
        }
        Ok(())
    }
}

fn running_as_root() -> bool {
    fs::metadata("/proc/self").map(|m| m.uid() == 0).unwrap_or(false)
}

fn free_loopback_port() -> Result<u16> {
    let listener = TcpListener::bind("127.0.0.1:0").context("finding a free port")?;
    Ok(listener.local_addr()?.port())
}

fn path_str(path: &Path) -> Result<&str> {
    path.to_str()
        .with_context(|| format!("path is not UTF-8: {}", path.display()))
}
