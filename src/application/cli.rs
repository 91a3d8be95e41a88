//! The `strata` command line: `serve`, `migrate [run|revert|status|mark-applied]`, `schema`,
//! `config` and `healthcheck`.

use std::process::ExitCode;
use std::time::Duration;

use clap::{Parser, Subcommand};

use crate::platform::config::Config;
use crate::platform::db::migrations;

/// Strata: the back office for small manufacturers.
#[derive(Debug, Parser)]
#[command(name = "strata", version, about)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Serve the API, GraphQL and the single-page app.
    Serve {
        /// Port to listen on (default: PORT or 8000).
        #[arg(long)]
        port: Option<u16>,
        /// Address to bind (default: HOST or 0.0.0.0).
        #[arg(long)]
        host: Option<std::net::IpAddr>,
        /// Apply pending migrations before serving (the embedded default; in a deployment
        /// the one-shot `strata migrate` job does this).
        #[arg(long)]
        migrate: bool,
    },
    /// Manage the database schema (default: apply pending migrations).
    Migrate {
        /// The migration action.
        #[command(subcommand)]
        action: Option<MigrateAction>,
    },
    /// Print the GraphQL schema (SDL).
    Schema,
    /// Print the effective configuration, secrets redacted.
    Config,
    /// Delete every user with their sessions and password-reset requests (one transaction),
    /// which brings the first-run setup wizard back. Other data is kept.
    ResetSetup {
        /// Confirm; without it nothing is deleted.
        #[arg(long)]
        yes: bool,
    },
    /// Exit 0 when the local server's /health answers 200 (for container health checks).
    Healthcheck {
        /// URL to probe (default: http://127.0.0.1:PORT/health).
        #[arg(long)]
        url: Option<String>,
    },
}

/// `strata migrate` actions.
#[derive(Debug, Subcommand)]
pub enum MigrateAction {
    /// Apply every pending migration, then exit.
    Run,
    /// Roll back the newest applied migration.
    Revert,
    /// List migrations and whether each is applied.
    Status,
    /// Record every migration as applied without running it (fixes "relation already
    /// exists" when the schema is ahead of the migration tracker).
    MarkApplied,
}

/// Parses the arguments, runs the command and returns the process exit code.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    // Commands that need no configuration run before it is read.
    match &cli.command {
        Command::Schema => {
            print!("{}", crate::application::areas::sdl());
            return ExitCode::SUCCESS;
        }
        Command::Healthcheck { url } => return healthcheck(url.clone()),
        _ => {}
    }
    let config = match Config::from_env() {
        Ok(c) => c,
        Err(e) => {
            eprint!("{e}");
            return ExitCode::from(2);
        }
    };
    crate::platform::telemetry::init(config.log_level, config.log_format);
    // Before the runtime starts (the sentry client's advice); flushes queued events on exit.
    let _error_tracking = crate::platform::error::tracking::init(&config);
    // GraphQL resolves nested selections recursively: a deep (but allowed) query needs more
    // than the default 2 MiB of stack per worker in a debug build.
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_stack_size(WORKER_STACK_BYTES)
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let result = runtime.block_on(run(cli.command, config));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            tracing::error!(error = %format!("{e:#}"), "command failed");
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

async fn run(command: Command, config: Config) -> anyhow::Result<()> {
    let url = config.database.url.expose().to_string();
    match command {
        Command::Serve {
            port,
            host,
            migrate,
        } => run_serve(config, &url, port, host, migrate).await,
        Command::Migrate { action } => {
            run_migrate(&url, action.unwrap_or(MigrateAction::Run)).await
        }
        Command::Config => {
            for (name, value) in config.describe() {
                println!("{name}={value}");
            }
            Ok(())
        }
        Command::ResetSetup { yes } => run_reset_setup(&url, yes).await,
        Command::Schema | Command::Healthcheck { .. } => Ok(()),
    }
}

/// `strata serve`: the command line overrides, start-up warnings, the schema check (or
/// migration), then the server with the job worker beside it.
async fn run_serve(
    mut config: Config,
    url: &str,
    port: Option<u16>,
    host: Option<std::net::IpAddr>,
    migrate: bool,
) -> anyhow::Result<()> {
    if let Some(port) = port {
        config.port = port;
    }
    if let Some(host) = host {
        config.host = host;
    }
    if config.secret_key_generated {
        tracing::warn!(
            "SECRET_KEY is not set: using a random key for this process; sessions end when it stops"
        );
    }
    if config.is_production() && config.password_reset_auto_approve && !config.smtp.is_configured()
    {
        tracing::error!(
            "SECURITY (critical): PASSWORD_RESET_AUTO_APPROVE=true in production without mail: anyone who knows an address gets its reset link"
        );
    }
    wait_for_database(url).await?;
    prepare_schema(url, migrate).await?;
    let pool = crate::platform::db::build_pool(&config.database)?;
    let state = crate::application::app::AppState::new(config, pool);
    if let Some(warning) = crate::platform::mail::production_warning(&state.config) {
        tracing::warn!("SECURITY WARNING: {warning}");
    }
    // The job worker (outgoing mail and other background work) runs beside the
    // server and stops after it, letting its current job finish.
    let worker = crate::application::app::start_jobs(
        &state,
        crate::platform::jobs::WorkerOptions::default(),
    );
    let served = crate::application::app::serve(state).await;
    worker.shutdown().await;
    served
}

/// Before serving: applies pending migrations (`--migrate`), or refuses to start while any
/// is pending.
async fn prepare_schema(url: &str, migrate: bool) -> anyhow::Result<()> {
    if migrate {
        let applied = migrations::run_pending(url).await?;
        if !applied.is_empty() {
            tracing::info!(count = applied.len(), "applied pending migrations");
        }
    } else {
        let pending = migrations::pending(url).await?;
        if !pending.is_empty() {
            anyhow::bail!(
                "the database has {} pending migration(s) ({}); apply them with `strata migrate` (or start with `strata serve --migrate`)",
                pending.len(),
                pending.join(", ")
            );
        }
    }
    Ok(())
}

/// `strata migrate ACTION`, printing what was done.
async fn run_migrate(url: &str, action: MigrateAction) -> anyhow::Result<()> {
    match action {
        MigrateAction::Run => {
            let applied = migrations::run_pending(url).await?;
            if applied.is_empty() {
                println!("database is up to date");
            } else {
                for v in &applied {
                    println!("applied {v}");
                }
            }
            Ok(())
        }
        MigrateAction::Revert => {
            let version = migrations::revert_last(url).await?;
            println!("reverted {version}");
            Ok(())
        }
        MigrateAction::Status => {
            for m in migrations::status(url).await? {
                println!(
                    "{} {}",
                    if m.applied { "[applied]" } else { "[pending]" },
                    m.name
                );
            }
            Ok(())
        }
        MigrateAction::MarkApplied => {
            let marked = migrations::mark_all_applied(url).await?;
            if marked.is_empty() {
                println!("every migration was already recorded as applied");
            }
            for m in marked {
                println!("marked {m} as applied");
            }
            Ok(())
        }
    }
}

/// `strata reset-setup`: with `--yes`, deletes every user with their sessions and reset
/// requests.
async fn run_reset_setup(url: &str, yes: bool) -> anyhow::Result<()> {
    if !yes {
        anyhow::bail!(
            "this deletes every user, session and password-reset request; run `strata reset-setup --yes` to confirm"
        );
    }
    use diesel_async::AsyncConnection;
    let mut conn = diesel_async::AsyncPgConnection::establish(url).await?;
    let n = crate::master_data::identity::setup::reset(&mut conn)
        .await
        .map_err(|e| anyhow::anyhow!(e.message))?;
    println!(
        "deleted {n} user(s) with their sessions and reset requests; the setup wizard is back"
    );
    Ok(())
}

/// At start-up the database may still be coming up (a container restart): retry for a while,
/// then fail with a message that says where we tried.
async fn wait_for_database(url: &str) -> anyhow::Result<()> {
    use diesel_async::{AsyncConnection, AsyncPgConnection};
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    loop {
        let attempt =
            tokio::time::timeout(Duration::from_secs(3), AsyncPgConnection::establish(url)).await;
        match attempt {
            Ok(Ok(_)) => return Ok(()),
            Ok(Err(e)) if tokio::time::Instant::now() >= deadline => {
                anyhow::bail!(
                    "cannot connect to the database at {}: {e}",
                    crate::platform::config::redact_url(url)
                )
            }
            Err(_) if tokio::time::Instant::now() >= deadline => {
                anyhow::bail!(
                    "timed out connecting to the database at {}",
                    crate::platform::config::redact_url(url)
                )
            }
            _ => {
                tracing::warn!("database not reachable yet; retrying");
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        }
    }
}

/// The stack of each runtime worker (8 MiB).
const WORKER_STACK_BYTES: usize = 8 * 1024 * 1024;

/// A dependency-free HTTP/1.1 GET of `/health` for container health checks (the runtime
/// image has no curl).
fn healthcheck(url: Option<String>) -> ExitCode {
    use std::io::{Read, Write};
    let port = std::env::var("PORT")
        .ok()
        .and_then(|p| p.parse::<u16>().ok())
        .unwrap_or(8000);
    let url = url.unwrap_or_else(|| format!("http://127.0.0.1:{port}/health"));
    let Ok(parsed) = url::Url::parse(&url) else {
        eprintln!("unhealthy: bad url {url}");
        return ExitCode::FAILURE;
    };
    let host = parsed.host_str().unwrap_or("127.0.0.1").to_string();
    let port = parsed.port_or_known_default().unwrap_or(port);
    let result = (|| -> std::io::Result<String> {
        let addr = std::net::ToSocketAddrs::to_socket_addrs(&(host.as_str(), port))?
            .next()
            .ok_or_else(|| std::io::Error::other("no address"))?;
        let mut stream = std::net::TcpStream::connect_timeout(&addr, Duration::from_secs(3))?;
        stream.set_read_timeout(Some(Duration::from_secs(5)))?;
        write!(
            stream,
            "GET {} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n",
            parsed.path()
        )?;
        let mut response = String::new();
        stream.read_to_string(&mut response)?;
        Ok(response)
    })();
    match result {
        Ok(response) if response.starts_with("HTTP/1.1 200") => {
            println!("healthy");
            ExitCode::SUCCESS
        }
        Ok(response) => {
            eprintln!(
                "unhealthy: {}",
                response.lines().next().unwrap_or("no status line")
            );
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("unhealthy: {e}");
            ExitCode::FAILURE
        }
    }
}
