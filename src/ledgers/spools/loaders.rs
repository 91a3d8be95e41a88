//! Loaders of spools: the usage history of a page of spools in one query.

use std::collections::HashMap;

use async_graphql::dataloader::{DataLoader, HashMapCache, Loader};

use crate::ledgers::spools::model::{self, PrinterSpool, SpoolRow, SpoolUsageRow};
use crate::platform::db::DbPool;
use crate::platform::error::AppError;

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

/// Spools by id.
pub struct SpoolsByIdLoader {
    /// The pool.
    pub pool: DbPool,
}

impl Loader<i64> for SpoolsByIdLoader {
    type Value = SpoolRow;
    type Error = AppError;
    async fn load(&self, keys: &[i64]) -> Result<HashMap<i64, SpoolRow>, AppError> {
        let mut conn = self.pool.get().await?;
        Ok(model::by_ids(&mut conn, keys)
            .await?
            .into_iter()
            .map(|s| (s.id, s))
            .collect())
    }
}

crate::grouped_loader!(
    /// The spools consumed by the production orders run on printers.
    PrinterSpoolsLoader, PrinterSpool, model::consumed_on_printers, printer_id
);

/// Per-request spools by id.
pub type SpoolsById = DataLoader<SpoolsByIdLoader, HashMapCache>;
/// Per-request spools consumed on printers.
pub type PrinterSpools = DataLoader<PrinterSpoolsLoader, HashMapCache>;

/// Per-request spool usage.
pub type SpoolUsage = DataLoader<SpoolUsageLoader, HashMapCache>;

/// Attaches the spool loaders to a request.
pub fn attach(request: async_graphql::Request, pool: &DbPool) -> async_graphql::Request {
    let spawn = crate::platform::graphql::context::spawn_in_current_span;
    request
        .data(DataLoader::with_cache(
            SpoolUsageLoader { pool: pool.clone() },
            spawn,
            HashMapCache::default(),
        ))
        .data(DataLoader::with_cache(
            SpoolsByIdLoader { pool: pool.clone() },
            spawn,
            HashMapCache::default(),
        ))
        .data(DataLoader::with_cache(
            PrinterSpoolsLoader { pool: pool.clone() },
            spawn,
            HashMapCache::default(),
        ))
}
