//! Embedded diesel migrations and the `strata migrate` commands.
//!
//! diesel_migrations is synchronous; it runs on a blocking thread over an
//! `AsyncConnectionWrapper`, the way crates.io does it, so no libpq is needed.

use diesel::migration::{Migration, MigrationSource};
use diesel::pg::Pg;
use diesel_async::AsyncPgConnection;
use diesel_async::async_connection_wrapper::AsyncConnectionWrapper;
use diesel_migrations::{EmbeddedMigrations, MigrationHarness, embed_migrations};

/// Every migration under `migrations/`, compiled into the binary.
pub const MIGRATIONS: EmbeddedMigrations = embed_migrations!("migrations");

type Wrapper = AsyncConnectionWrapper<AsyncPgConnection>;
type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// One embedded migration and whether the database has it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MigrationState {
    /// The migration's version (its directory name's timestamp part).
    pub version: String,
    /// The full directory name.
    pub name: String,
    /// True when recorded in `__diesel_schema_migrations`.
    pub applied: bool,
}

async fn with_harness<T, F>(url: &str, f: F) -> anyhow::Result<T>
where
    T: Send + 'static,
    F: FnOnce(&mut Wrapper) -> Result<T, BoxError> + Send + 'static,
{
    use diesel_async::AsyncConnection;
    let conn = tokio::time::timeout(
        std::time::Duration::from_secs(10),
        AsyncPgConnection::establish(url),
    )
    .await
    .map_err(|_| anyhow::anyhow!("timed out connecting to the database"))?
    .map_err(|e| anyhow::anyhow!("cannot connect to the database: {e}"))?;
    let mut wrapper = Wrapper::from(conn);
    tokio::task::spawn_blocking(move || f(&mut wrapper))
        .await?
        .map_err(|e| anyhow::anyhow!("{e}"))
}

fn embedded() -> Result<Vec<Box<dyn Migration<Pg>>>, BoxError> {
    MigrationSource::<Pg>::migrations(&MIGRATIONS)
}

/// Applies every pending migration; returns the versions applied.
pub async fn run_pending(url: &str) -> anyhow::Result<Vec<String>> {
    with_harness(url, |conn| {
        let done = conn.run_pending_migrations(MIGRATIONS)?;
        Ok(done.iter().map(ToString::to_string).collect())
    })
    .await
}

/// Reverts the newest applied migration; returns its version.
pub async fn revert_last(url: &str) -> anyhow::Result<String> {
    with_harness(url, |conn| {
        let version = conn.revert_last_migration(MIGRATIONS)?;
        Ok(version.to_string())
    })
    .await
}

/// The state of every embedded migration, oldest first.
pub async fn status(url: &str) -> anyhow::Result<Vec<MigrationState>> {
    with_harness(url, |conn| {
        let applied: Vec<String> = conn
            .applied_migrations()?
            .iter()
            .map(ToString::to_string)
            .collect();
        let mut states: Vec<MigrationState> = embedded()?
            .iter()
            .map(|m| {
                let version = m.name().version().to_string();
                MigrationState {
                    applied: applied.contains(&version),
                    name: m.name().to_string(),
                    version,
                }
            })
            .collect();
        states.sort_by(|a, b| a.version.cmp(&b.version));
        Ok(states)
    })
    .await
}

/// The embedded migrations the database does not have yet.
pub async fn pending(url: &str) -> anyhow::Result<Vec<String>> {
    Ok(status(url)
        .await?
        .into_iter()
        .filter(|s| !s.applied)
        .map(|s| s.name)
        .collect())
}

/// Records every embedded migration as applied without running it: the fix for a schema
/// that exists while the tracker says otherwise ("relation already exists", spec 7).
pub async fn mark_all_applied(url: &str) -> anyhow::Result<Vec<String>> {
    with_harness(url, |conn| {
        use diesel::RunQueryDsl;
        use diesel::migration::MigrationConnection;
        conn.setup()?;
        let mut marked = Vec::new();
        for m in embedded()? {
            let version = m.name().version().to_string();
            let inserted = diesel::sql_query(
                "INSERT INTO __diesel_schema_migrations (version) VALUES ($1) ON CONFLICT DO NOTHING",
            )
            .bind::<diesel::sql_types::Text, _>(&version)
            .execute(conn)?;
            if inserted > 0 {
                marked.push(m.name().to_string());
            }
        }
        Ok(marked)
    })
    .await
}

/// A fingerprint of the embedded migrations (names and SQL), used by the test harness to
/// name its template database so a changed migration gets a fresh template.
pub fn fingerprint() -> String {
    use sha2::{Digest, Sha256};
    let mut hasher = Sha256::new();
    if let Ok(list) = embedded() {
        for m in list {
            hasher.update(m.name().to_string().as_bytes());
        }
    }
    hasher.update(include_str!(concat!(env!("OUT_DIR"), "/migrations.digest")).as_bytes());
    hex::encode(&hasher.finalize()[..8])
}
