//! Loaders of spools: the usage history of a page of spools in one query.

use std::collections::HashMap;

use async_graphql::dataloader::{DataLoader, HashMapCache, Loader};

use crate::db::DbPool;
use crate::error::AppError;
use crate::spools::model::{self, SpoolUsageRow};

/// The usage rows of spools, oldest first.
pub struct SpoolUsageLoader {
    /// The pool.
    pub pool: DbPool,
}

impl Loader<i64> for SpoolUsageLoader {
    type Value = Vec<SpoolUsageRow>;
    type Error = AppError;
    async fn load(&self, keys: &[i64]) -> Result<HashMap<i64, Vec<SpoolUsageRow>>, AppError> {
        let mut conn = self.pool.get().await?;
        let mut out: HashMap<i64, Vec<SpoolUsageRow>> =
            keys.iter().map(|k| (*k, Vec::new())).collect();
        for row in model::usage_of(&mut conn, keys).await? {
            out.entry(row.spool_id).or_default().push(row);
        }
        Ok(out)
    }
}

/// Per-request spool usage.
pub type SpoolUsage = DataLoader<SpoolUsageLoader, HashMapCache>;

/// Attaches the spool loaders to a request.
pub fn attach(request: async_graphql::Request, pool: &DbPool) -> async_graphql::Request {
    request.data(DataLoader::with_cache(
        SpoolUsageLoader { pool: pool.clone() },
        crate::graphql::context::spawn_in_current_span,
        HashMapCache::default(),
    ))
}
