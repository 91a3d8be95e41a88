//! DataLoaders of the catalog: every relation of an item is loaded in one query per page,
//! never one per row. Loaders live in the schema's data and do not cache (`DataLoader::new`
//! has no cache), so they only batch what one request asks for at once.

use std::collections::HashMap;
use std::sync::Arc;

use async_graphql::dataloader::Loader;

use crate::master_data::catalog::model::{self, CategoryRow, ItemFileRow};
use crate::platform::db::DbPool;
use crate::platform::error::AppError;

/// All item categories at once (the tree is small; paths need every ancestor).
pub struct CategoryTreeLoader {
    /// The pool.
    pub pool: DbPool,
}

/// The single key of [`CategoryTreeLoader`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct AllCategories;

impl Loader<AllCategories> for CategoryTreeLoader {
    type Value = Arc<Vec<CategoryRow>>;
    type Error = AppError;

    async fn load(
        &self,
        _keys: &[AllCategories],
    ) -> Result<HashMap<AllCategories, Self::Value>, Self::Error> {
        let mut conn = self.pool.get().await?;
        let rows = model::categories(&mut conn).await?;
        Ok(HashMap::from([(AllCategories, Arc::new(rows))]))
    }
}

/// Every unit of measure at once (a few dozen rows; conversions need both ends).
pub struct UnitsLoader {
    /// The pool.
    pub pool: DbPool,
}

/// The single key of [`UnitsLoader`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct AllUnits;

impl Loader<AllUnits> for UnitsLoader {
    type Value = Arc<Vec<model::UomRow>>;
    type Error = AppError;

    async fn load(
        &self,
        _keys: &[AllUnits],
    ) -> Result<HashMap<AllUnits, Self::Value>, Self::Error> {
        let mut conn = self.pool.get().await?;
        let rows = model::units(&mut conn).await?;
        Ok(HashMap::from([(AllUnits, Arc::new(rows))]))
    }
}

/// The files of items, by item id.
pub struct ItemFilesLoader {
    /// The pool.
    pub pool: DbPool,
}

impl Loader<i64> for ItemFilesLoader {
    type Value = Vec<ItemFileRow>;
    type Error = AppError;

    async fn load(&self, keys: &[i64]) -> Result<HashMap<i64, Self::Value>, Self::Error> {
        // Runs in a task of its own: the line carries the request's id only because the task
        // is spawned in the request's span (`spawn_in_current_span`).
        tracing::debug!(items = keys.len(), "loading item files");
        let mut conn = self.pool.get().await?;
        let mut out: HashMap<i64, Vec<ItemFileRow>> =
            keys.iter().map(|k| (*k, Vec::new())).collect();
        for f in model::files_of(&mut conn, keys).await? {
            out.entry(f.item_id).or_default().push(f);
        }
        Ok(out)
    }
}

/// The per-request category loader (see `crate::platform::graphql::per_request`).
pub type CategoryTree = async_graphql::dataloader::DataLoader<
    CategoryTreeLoader,
    async_graphql::dataloader::HashMapCache,
>;
/// The per-request units loader.
pub type Units =
    async_graphql::dataloader::DataLoader<UnitsLoader, async_graphql::dataloader::HashMapCache>;
/// The per-request item-files loader.
pub type ItemFiles =
    async_graphql::dataloader::DataLoader<ItemFilesLoader, async_graphql::dataloader::HashMapCache>;

/// Attaches the catalog's loaders to one request, each with a cache that lives as long as
/// the request (so a key is loaded at most once per request and nothing stale outlives it).
pub fn attach(request: async_graphql::Request, pool: &DbPool) -> async_graphql::Request {
    use async_graphql::dataloader::{DataLoader, HashMapCache};
    request
        .data(DataLoader::with_cache(
            CategoryTreeLoader { pool: pool.clone() },
            crate::platform::graphql::context::spawn_in_current_span,
            HashMapCache::default(),
        ))
        .data(DataLoader::with_cache(
            UnitsLoader { pool: pool.clone() },
            crate::platform::graphql::context::spawn_in_current_span,
            HashMapCache::default(),
        ))
        .data(DataLoader::with_cache(
            ItemFilesLoader { pool: pool.clone() },
            crate::platform::graphql::context::spawn_in_current_span,
            HashMapCache::default(),
        ))
}
