//! Loaders of printers: printers by id, one statement per page however many rows show a
//! printer (an operation's printer, a maintenance log's).

use std::collections::HashMap;

use async_graphql::dataloader::{DataLoader, HashMapCache, Loader};
use diesel::prelude::*;
use diesel_async::RunQueryDsl;

use crate::operations::printers::model::PrinterRow;
use crate::platform::db::DbPool;
use crate::platform::db::schema::printers;
use crate::platform::error::AppError;

/// Printers by id, whole (an operation's or a log's printer, its code and name).
pub struct PrintersLoader {
    /// The pool.
    pub pool: DbPool,
}

impl Loader<i64> for PrintersLoader {
    type Value = PrinterRow;
    type Error = AppError;
    async fn load(&self, keys: &[i64]) -> Result<HashMap<i64, PrinterRow>, AppError> {
        let mut conn = self.pool.get().await?;
        let rows: Vec<PrinterRow> = printers::table
            .filter(printers::id.eq_any(keys))
            .select(PrinterRow::as_select())
            .load(&mut conn)
            .await?;
        Ok(rows.into_iter().map(|p| (p.id, p)).collect())
    }
}

/// Per-request printers.
pub type Printers = DataLoader<PrintersLoader, HashMapCache>;

/// Attaches the printers loader to a request.
pub fn attach(request: async_graphql::Request, pool: &DbPool) -> async_graphql::Request {
    request.data(DataLoader::with_cache(
        PrintersLoader { pool: pool.clone() },
        crate::platform::graphql::context::spawn_in_current_span,
        HashMapCache::default(),
    ))
}
