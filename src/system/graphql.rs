//! Facts about the running service.

use async_graphql::{Context, Object, SimpleObject};

use crate::auth::Access;

/// The running service.
#[derive(Debug, Clone, SimpleObject)]
pub struct SystemFacts {
    /// The service version, as in `/health`.
    pub version: &'static str,
    /// The day this binary was built (`YYYY-MM-DD`, UTC).
    pub build_date: &'static str,
    /// The edition tier (`community` for the open-source edition).
    #[graphql(guard = "Access::User")]
    pub tier: String,
    /// `development` or `production`.
    #[graphql(guard = "Access::User")]
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

    /// The running service: version and build date for anyone (like `/health`), edition and
    /// environment for signed-in users.
    async fn system(&self, ctx: &Context<'_>) -> SystemFacts {
        let config = ctx.data_opt::<std::sync::Arc<crate::config::Config>>();
        SystemFacts {
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
