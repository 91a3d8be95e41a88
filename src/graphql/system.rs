//! Facts about the running service.

use async_graphql::Object;

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
    async fn tier(&self, ctx: &async_graphql::Context<'_>) -> String {
        ctx.data_opt::<std::sync::Arc<crate::config::Config>>()
            .map(|c| c.tier.clone())
            .unwrap_or_else(|| "community".into())
    }
}
