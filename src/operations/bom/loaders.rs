//! Loaders of BOMs: lines per BOM, the active BOM per product, item facts, whole items, and
//! the cost sheet of a BOM (its structure loaded level by level): each one batch per page of
//! parents, so a report may nest product -> BOM -> lines -> component -> its BOM to any
//! depth for a fixed number of statements per level.

use std::collections::HashMap;

use async_graphql::dataloader::{DataLoader, HashMapCache, Loader};
use bigdecimal::BigDecimal;
use diesel::prelude::*;
use diesel_async::RunQueryDsl;

use crate::master_data::catalog::graphql::Item;
use crate::master_data::catalog::model::ItemRow;
use crate::operations::bom::model::{self, BomLineRow, BomRow, Part};
use crate::operations::bom::tree::{LineCost, Tree};
use crate::platform::db::DbPool;
use crate::platform::db::schema::items;
use crate::platform::error::AppError;

/// Lines per BOM.
pub struct BomLinesLoader {
    /// The pool.
    pub pool: DbPool,
}

impl Loader<i64> for BomLinesLoader {
    type Value = Vec<BomLineRow>;
    type Error = AppError;
    async fn load(&self, keys: &[i64]) -> Result<HashMap<i64, Vec<BomLineRow>>, AppError> {
        let mut conn = self.pool.get().await?;
        let mut out: HashMap<i64, Vec<BomLineRow>> =
            keys.iter().map(|k| (*k, Vec::new())).collect();
        for line in model::lines_of(&mut conn, keys).await? {
            out.entry(line.bom_id).or_default().push(line);
        }
        Ok(out)
    }
}

/// The active BOM of each product (absent: none).
pub struct ActiveBomLoader {
    /// The pool.
    pub pool: DbPool,
}

impl Loader<i64> for ActiveBomLoader {
    type Value = BomRow;
    type Error = AppError;
    async fn load(&self, keys: &[i64]) -> Result<HashMap<i64, BomRow>, AppError> {
        let mut conn = self.pool.get().await?;
        Ok(model::active_of(&mut conn, keys)
            .await?
            .into_iter()
            .map(|b| (b.product_id, b))
            .collect())
    }
}

/// SKU, name, unit and costs of items.
pub struct PartLoader {
    /// The pool.
    pub pool: DbPool,
}

impl Loader<i64> for PartLoader {
    type Value = Part;
    type Error = AppError;
    async fn load(&self, keys: &[i64]) -> Result<HashMap<i64, Part>, AppError> {
        let mut conn = self.pool.get().await?;
        Ok(model::parts(&mut conn, keys)
            .await?
            .into_iter()
            .map(|p| (p.id, p))
            .collect())
    }
}

/// Whole items by id (a line's component).
pub struct ItemLoader {
    /// The pool.
    pub pool: DbPool,
}

impl Loader<i64> for ItemLoader {
    type Value = Item;
    type Error = AppError;
    async fn load(&self, keys: &[i64]) -> Result<HashMap<i64, Item>, AppError> {
        let mut conn = self.pool.get().await?;
        let rows: Vec<ItemRow> = items::table
            .filter(items::id.eq_any(keys))
            .select(ItemRow::as_select())
            .load(&mut conn)
            .await?;
        Ok(rows.into_iter().map(|r| (r.id, Item::from(r))).collect())
    }
}

/// A BOM's costs: per unit (components and process), components only, each line's; or the
/// cycle that makes them meaningless.
#[derive(Debug, Clone, Default)]
pub struct CostSheet {
    /// Components plus process cost, per unit.
    pub total: BigDecimal,
    /// Components only, per unit.
    pub material: BigDecimal,
    /// Each line's cost, by line id.
    pub lines: HashMap<i64, LineCost>,
    /// Why there are no costs (`Circular BOM: ...`).
    pub cycle: Option<String>,
}

/// Cost sheets of BOMs: one structure load for a whole page of BOMs.
pub struct CostSheetLoader {
    /// The pool.
    pub pool: DbPool,
}

impl Loader<i64> for CostSheetLoader {
    type Value = CostSheet;
    type Error = AppError;
    async fn load(&self, keys: &[i64]) -> Result<HashMap<i64, CostSheet>, AppError> {
        let mut conn = self.pool.get().await?;
        let roots = model::by_ids(&mut conn, keys).await?;
        let tree = Tree::load(&mut conn, roots).await?;
        let mut out = HashMap::new();
        for id in keys {
            if tree.bom(*id).is_none() {
                continue;
            }
            let sheet = match (tree.cost(*id), tree.material_cost(*id)) {
                (Ok((total, lines)), Ok(material)) => CostSheet {
                    total,
                    material,
                    lines,
                    cycle: None,
                },
                (Err(c), _) | (_, Err(c)) => CostSheet {
                    cycle: Some(c.message()),
                    ..CostSheet::default()
                },
            };
            out.insert(*id, sheet);
        }
        Ok(out)
    }
}

/// Per-request BOM lines.
pub type BomLines = DataLoader<BomLinesLoader, HashMapCache>;
/// Per-request active BOMs by product.
pub type ActiveBoms = DataLoader<ActiveBomLoader, HashMapCache>;
/// Per-request item facts for BOMs.
pub type Parts = DataLoader<PartLoader, HashMapCache>;
/// Per-request whole items.
pub type Items = DataLoader<ItemLoader, HashMapCache>;
/// Per-request cost sheets.
pub type CostSheets = DataLoader<CostSheetLoader, HashMapCache>;

/// Attaches the BOM loaders to a request.
pub fn attach(request: async_graphql::Request, pool: &DbPool) -> async_graphql::Request {
    let spawn = crate::platform::graphql::context::spawn_in_current_span;
    request
        .data(DataLoader::with_cache(
            BomLinesLoader { pool: pool.clone() },
            spawn,
            HashMapCache::default(),
        ))
        .data(DataLoader::with_cache(
            ActiveBomLoader { pool: pool.clone() },
            spawn,
            HashMapCache::default(),
        ))
        .data(DataLoader::with_cache(
            PartLoader { pool: pool.clone() },
            spawn,
            HashMapCache::default(),
        ))
        .data(DataLoader::with_cache(
            ItemLoader { pool: pool.clone() },
            spawn,
            HashMapCache::default(),
        ))
        .data(DataLoader::with_cache(
            CostSheetLoader { pool: pool.clone() },
            spawn,
            HashMapCache::default(),
        ))
}
