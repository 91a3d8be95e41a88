//! Facts about the running service.

use async_graphql::{Context, Object, SimpleObject};

use crate::platform::auth::Access;

/// The running service, as anyone may see it (like `/health`).
#[derive(Debug, Clone, SimpleObject)]
pub struct SystemVersion {
    /// The service version, as in `/health`.
    pub version: &'static str,
    /// The day this binary was built (`YYYY-MM-DD`, UTC).
    pub build_date: &'static str,
}

/// The running service: what a client needs before sign-in to decide what to show (public,
/// as FilaOps's app reads it at start-up; nothing sensitive), and the environment for
/// signed-in users.
#[derive(Debug, Clone, SimpleObject)]
pub struct SystemInfo {
    /// The service version, as in `/health`.
    pub version: &'static str,
    /// The day this binary was built (`YYYY-MM-DD`, UTC).
    pub build_date: &'static str,
    /// The edition tier (`community` for the open-source edition).
    pub tier: String,
    /// Paid-edition features switched on (none in the community edition).
    pub features_enabled: Vec<String>,
    /// How it was installed (`docker` or `binary`), as the original reports it.
    pub install_method: &'static str,
    /// Whether outgoing mail is configured (password resets then go by e-mail).
    pub smtp_configured: bool,
    /// `development` or `production` (signed-in users).
    #[graphql(guard = "Access::User")]
    pub environment: String,
}

/// The service's health as the original's `/api/v1/system/health` reports it: always an
/// answer (unlike `/health`, which is 503 without a database), `degraded` when the database
/// does not answer.
#[derive(Debug, Clone, SimpleObject)]
pub struct SystemHealth {
    /// `healthy`, or `degraded` when the database does not answer.
    pub status: &'static str,
    /// The service version.
    pub version: &'static str,
    /// The day this binary was built (`YYYY-MM-DD`, UTC).
    pub timestamp: &'static str,
    /// Whether `SELECT 1` answered within the health check's timeout.
    pub database_connected: bool,
    /// Each part's state.
    pub services: SystemServices,
    /// What is wrong, when something is.
    pub error: Option<String>,
}

/// The parts of [`SystemHealth`].
#[derive(Debug, Clone, SimpleObject)]
pub struct SystemServices {
    /// Always `operational` (this binary answers).
    pub version_manager: &'static str,
    /// Always `ready` (updates are the deployment's business).
    pub update_checker: &'static str,
    /// `connected` or `disconnected`.
    pub database: &'static str,
}

/// Fields about the service itself.
#[derive(Default)]
pub struct SystemQuery;

#[Object]
impl SystemQuery {
    /// The service version, as in `/health`.
    async fn version(&self) -> &'static str {
        crate::VERSION
    }

    /// The edition tier (`community` for the open-source edition).
    async fn tier(&self, ctx: &Context<'_>) -> String {
        ctx.data_opt::<std::sync::Arc<crate::platform::config::Config>>()
            .map(|c| c.tier.clone())
            .unwrap_or_else(|| "community".into())
    }

    /// The service's version and build date (public, like `/health`).
    async fn system(&self) -> SystemVersion {
        SystemVersion {
            version: crate::VERSION,
            build_date: crate::BUILD_DATE,
        }
    }

    /// The service's health (public, like `/health`; CONTRACT 4 `/api/v1/system/health`).
    async fn system_health(
        &self,
        ctx: &Context<'_>,
    ) -> crate::platform::error::AppResult<SystemHealth> {
        let pool = crate::platform::graphql::context::pool(ctx)?;
        let connected = crate::platform::health::database_ok(pool).await;
        Ok(SystemHealth {
            status: if connected { "healthy" } else { "degraded" },
            version: crate::VERSION,
            timestamp: crate::BUILD_DATE,
            database_connected: connected,
            services: SystemServices {
                version_manager: "operational",
                update_checker: "ready",
                database: if connected {
                    "connected"
                } else {
                    "disconnected"
                },
            },
            error: (!connected).then(|| "The database does not answer".to_string()),
        })
    }

    /// The service's version, build, edition and enabled features (public: clients read it
    /// before sign-in), and its environment (signed-in users).
    #[graphql(guard = "Access::Public")]
    async fn system_info(&self, ctx: &Context<'_>) -> SystemInfo {
        let config = ctx.data_opt::<std::sync::Arc<crate::platform::config::Config>>();
        SystemInfo {
            version: crate::VERSION,
            build_date: crate::BUILD_DATE,
            features_enabled: Vec::new(),
            install_method: if std::path::Path::new("/.dockerenv").exists() {
                "docker"
            } else {
                "binary"
            },
            smtp_configured: config.is_some_and(|c| c.smtp.is_configured()),
            tier: config
                .map(|c| c.tier.clone())
                .unwrap_or_else(|| "community".into()),
            environment: config
                .map(|c| {
                    if c.is_production() {
                        "production"
                    } else {
                        "development"
                    }
                })
                .unwrap_or("development")
                .to_string(),
        }
    }
}
