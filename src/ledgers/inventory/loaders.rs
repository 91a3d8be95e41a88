//! Loaders of stock: an item's totals and balances, and a balance's recent transactions,
//! each one query per page of parents.

use std::collections::HashMap;

use async_graphql::dataloader::{DataLoader, HashMapCache, Loader};

use crate::ledgers::inventory::model::{self, BalanceRow, ItemFacts, StockTotals, TransactionRow};
use crate::platform::db::DbPool;
use crate::platform::error::AppError;

/// On hand, allocated and available per item over every location.
pub struct ItemStockLoader {
    /// The pool.
    pub pool: DbPool,
}

impl Loader<i64> for ItemStockLoader {
    type Value = StockTotals;
    type Error = AppError;
    async fn load(&self, keys: &[i64]) -> Result<HashMap<i64, StockTotals>, AppError> {
        let mut conn = self.pool.get().await?;
        let mut out: HashMap<i64, StockTotals> =
            keys.iter().map(|k| (*k, StockTotals::default())).collect();
        out.extend(model::totals_of(&mut conn, keys).await?);
        Ok(out)
    }
}

/// Balances per item (by location).
pub struct ItemBalancesLoader {
    /// The pool.
    pub pool: DbPool,
}

impl Loader<i64> for ItemBalancesLoader {
    type Value = Vec<BalanceRow>;
    type Error = AppError;
    async fn load(&self, keys: &[i64]) -> Result<HashMap<i64, Vec<BalanceRow>>, AppError> {
        let mut conn = self.pool.get().await?;
        let mut out: HashMap<i64, Vec<BalanceRow>> =
            keys.iter().map(|k| (*k, Vec::new())).collect();
        for b in model::balances_of(&mut conn, keys).await? {
            out.entry(b.item_id).or_default().push(b);
        }
        Ok(out)
    }
}

/// The most recent transactions of a balance, keyed by (item, location, how many).
pub struct BalanceTransactionsLoader {
    /// The pool.
    pub pool: DbPool,
}

impl Loader<(i64, i64, i64)> for BalanceTransactionsLoader {
    type Value = Vec<TransactionRow>;
    type Error = AppError;
    async fn load(
        &self,
        keys: &[(i64, i64, i64)],
    ) -> Result<HashMap<(i64, i64, i64), Vec<TransactionRow>>, AppError> {
        let mut conn = self.pool.get().await?;
        let mut out = HashMap::new();
        let mut limits: Vec<i64> = keys.iter().map(|k| k.2).collect();
        limits.sort_unstable();
        limits.dedup();
        for limit in limits {
            let pairs: Vec<(i64, i64)> = keys
                .iter()
                .filter(|k| k.2 == limit)
                .map(|k| (k.0, k.1))
                .collect();
            let rows = model::recent_of_balances(&mut conn, &pairs, limit).await?;
            for (item, location) in pairs {
                let mine = rows
                    .iter()
                    .filter(|r| r.item_id == item && r.location_id == location)
                    .cloned()
                    .collect();
                out.insert((item, location, limit), mine);
            }
        }
        Ok(out)
    }
}

/// SKU, name, unit and category of items.
pub struct ItemFactsLoader {
    /// The pool.
    pub pool: DbPool,
}

impl Loader<i64> for ItemFactsLoader {
    type Value = ItemFacts;
    type Error = AppError;
    async fn load(&self, keys: &[i64]) -> Result<HashMap<i64, ItemFacts>, AppError> {
        let mut conn = self.pool.get().await?;
        Ok(model::item_facts(&mut conn, keys)
            .await?
            .into_iter()
            .map(|f| (f.id, f))
            .collect())
    }
}

/// Code and name of locations.
pub struct LocationNamesLoader {
    /// The pool.
    pub pool: DbPool,
}

impl Loader<i64> for LocationNamesLoader {
    type Value = (String, String);
    type Error = AppError;
    async fn load(&self, keys: &[i64]) -> Result<HashMap<i64, (String, String)>, AppError> {
        let mut conn = self.pool.get().await?;
        Ok(model::location_names(&mut conn, keys)
            .await?
            .into_iter()
            .map(|(id, code, name)| (id, (code, name)))
            .collect())
    }
}

/// What the ledger says is on hand at an (item, location): the sum of every movement that
/// changes on-hand stock there, which the stored balance must equal.
pub struct LedgerSumsLoader {
    /// The pool.
    pub pool: DbPool,
}

impl Loader<(i64, i64)> for LedgerSumsLoader {
    type Value = bigdecimal::BigDecimal;
    type Error = AppError;
    async fn load(
        &self,
        keys: &[(i64, i64)],
    ) -> Result<HashMap<(i64, i64), bigdecimal::BigDecimal>, AppError> {
        use diesel::prelude::*;
        use diesel_async::RunQueryDsl;

        use crate::platform::db::schema::inventory_transactions as t;
        let mut conn = self.pool.get().await?;
        let items: Vec<i64> = keys.iter().map(|k| k.0).collect();
        let rows: Vec<(i64, i64, Option<bigdecimal::BigDecimal>)> = t::table
            .filter(t::item_id.eq_any(&items))
            .filter(t::affects_on_hand.eq(true))
            .group_by((t::item_id, t::location_id))
            .select((t::item_id, t::location_id, diesel::dsl::sum(t::quantity)))
            .load(&mut conn)
            .await?;
        let mut out: HashMap<(i64, i64), bigdecimal::BigDecimal> = rows
            .into_iter()
            .map(|(item, location, sum)| ((item, location), sum.unwrap_or_default()))
            .filter(|(key, _)| keys.contains(key))
            .collect();
        for key in keys {
            out.entry(*key).or_default();
        }
        Ok(out)
    }
}

/// Per-request ledger sums of (item, location).
pub type LedgerSums = DataLoader<LedgerSumsLoader, HashMapCache>;

/// Per-request item facts.
pub type ItemFactsOf = DataLoader<ItemFactsLoader, HashMapCache>;
/// Per-request location names.
pub type LocationNames = DataLoader<LocationNamesLoader, HashMapCache>;
/// Per-request item stock totals.
pub type ItemStock = DataLoader<ItemStockLoader, HashMapCache>;
/// Per-request item balances.
pub type ItemBalances = DataLoader<ItemBalancesLoader, HashMapCache>;
/// Per-request balance transactions.
pub type BalanceTransactions = DataLoader<BalanceTransactionsLoader, HashMapCache>;

/// Attaches the inventory loaders (and the books', which stock rows link to) to a request.
pub fn attach(request: async_graphql::Request, pool: &DbPool) -> async_graphql::Request {
    let spawn = crate::platform::graphql::context::spawn_in_current_span;
    let request = request
        .data(DataLoader::with_cache(
            ItemStockLoader { pool: pool.clone() },
            spawn,
            HashMapCache::default(),
        ))
        .data(DataLoader::with_cache(
            ItemBalancesLoader { pool: pool.clone() },
            spawn,
            HashMapCache::default(),
        ))
        .data(DataLoader::with_cache(
            ItemFactsLoader { pool: pool.clone() },
            spawn,
            HashMapCache::default(),
        ))
        .data(DataLoader::with_cache(
            LocationNamesLoader { pool: pool.clone() },
            spawn,
            HashMapCache::default(),
        ))
        .data(DataLoader::with_cache(
            BalanceTransactionsLoader { pool: pool.clone() },
            spawn,
            HashMapCache::default(),
        ))
        .data(DataLoader::with_cache(
            LedgerSumsLoader { pool: pool.clone() },
            spawn,
            HashMapCache::default(),
        ));
    crate::ledgers::accounting::graphql::loaders::attach(request, pool)
}
