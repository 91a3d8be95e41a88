//! Facts about the running service.

use async_graphql::{Context, Object, SimpleObject};

use crate::auth::Access;

/// The running service, as anyone may see it (like `/health`).
#[derive(Debug, Clone, SimpleObject)]
pub struct SystemVersion {
    /// The service version, as in `/health`.
    pub version: &'static str,
    /// The day this binary was built (`YYYY-MM-DD`, UTC).
    pub build_date: &'static str,
}

/// The running service, for signed-in users.
#[derive(Debug, Clone, SimpleObject)]
pub struct SystemInfo {
    /// The service version, as in `/health`.
    pub version: &'static str,
    /// The day this binary was built (`YYYY-MM-DD`, UTC).
    pub build_date: &'static str,
    /// The edition tier (`community` for the open-source edition).
    pub tier: String,
    /// `development` or `production`.
    pub environment: String,
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
        ctx.data_opt::<std::sync::Arc<crate::config::Config>>()
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

    /// The service's version, build, edition and environment.
    #[graphql(guard = "Access::User")]
    async fn system_info(&self, ctx: &Context<'_>) -> SystemInfo {
        let config = ctx.data_opt::<std::sync::Arc<crate::config::Config>>();
        SystemInfo {
            version: crate::VERSION,
            build_date: crate::BUILD_DATE,
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
