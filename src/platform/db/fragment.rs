//! Fixed pieces of SQL inside diesel queries that keep the statement in the prepared-statement
//! cache.
//!
//! `diesel::dsl::sql` marks the whole statement "unsafe to cache": diesel-async then prepares
//! it anew on every call (a parse, a plan and an extra round trip each time; on an item page
//! that was half of PostgreSQL's work). A [`Fixed`] fragment is a `&'static str`, so the
//! statement text it produces is the same on every call and diesel caches it by its text.
//! Values still go through binds ([`fixed_bind`]), never into the text.

use std::marker::PhantomData;

use diesel::expression::{
    AppearsOnTable, Expression, SelectableExpression, TypedExpressionType, ValidGrouping,
    is_aggregate,
};
use diesel::pg::Pg;
use diesel::query_builder::{AstPass, QueryFragment, QueryId};
use diesel::result::QueryResult;
use diesel::serialize::ToSql;
use diesel::sql_types::HasSqlType;

/// A fixed SQL expression of type `ST` (see the module docs).
#[derive(Debug, Clone, Copy)]
pub struct Fixed<ST> {
    sql: &'static str,
    sql_type: PhantomData<ST>,
}

/// `sql` as an expression of type `ST` that leaves its statement cacheable.
pub const fn fixed<ST>(sql: &'static str) -> Fixed<ST> {
    Fixed {
        sql,
        sql_type: PhantomData,
    }
}

impl<ST: TypedExpressionType> Expression for Fixed<ST> {
    type SqlType = ST;
}

impl<ST> QueryFragment<Pg> for Fixed<ST> {
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, Pg>) -> QueryResult<()> {
        out.push_sql(self.sql);
        Ok(())
    }
}

impl<ST> QueryId for Fixed<ST> {
    type QueryId = ();
    // The text decides the statement, so the cache keys on the text, not on the type.
    const HAS_STATIC_QUERY_ID: bool = false;
}

impl<ST, GB> ValidGrouping<GB> for Fixed<ST> {
    type IsAggregate = is_aggregate::Never;
}

impl<QS, ST> AppearsOnTable<QS> for Fixed<ST> where Self: Expression {}

impl<QS, ST> SelectableExpression<QS> for Fixed<ST> where Self: Expression {}

/// A fixed SQL expression with one bound value between two fixed texts:
/// `head $1 tail`.
#[derive(Debug, Clone)]
pub struct FixedBind<ST, BT, V> {
    head: &'static str,
    value: V,
    tail: &'static str,
    types: PhantomData<(ST, BT)>,
}

/// `head`, then `value` bound as `BT`, then `tail`, as one cacheable expression of type `ST`,
/// e.g. `fixed_bind::<Bool, Text, _>("upper(code) = upper(", code, ")")`.
pub fn fixed_bind<ST, BT, V>(
    head: &'static str,
    value: V,
    tail: &'static str,
) -> FixedBind<ST, BT, V> {
    FixedBind {
        head,
        value,
        tail,
        types: PhantomData,
    }
}

impl<ST: TypedExpressionType, BT, V> Expression for FixedBind<ST, BT, V> {
    type SqlType = ST;
}

impl<ST, BT, V> QueryFragment<Pg> for FixedBind<ST, BT, V>
where
    Pg: HasSqlType<BT>,
    V: ToSql<BT, Pg>,
{
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, Pg>) -> QueryResult<()> {
        out.push_sql(self.head);
        out.push_bind_param::<BT, V>(&self.value)?;
        out.push_sql(self.tail);
        Ok(())
    }
}

impl<ST, BT, V> QueryId for FixedBind<ST, BT, V> {
    type QueryId = ();
    const HAS_STATIC_QUERY_ID: bool = false;
}

impl<ST, BT, V, GB> ValidGrouping<GB> for FixedBind<ST, BT, V> {
    type IsAggregate = is_aggregate::Never;
}

impl<QS, ST, BT, V> AppearsOnTable<QS> for FixedBind<ST, BT, V> where Self: Expression {}

impl<QS, ST, BT, V> SelectableExpression<QS> for FixedBind<ST, BT, V> where Self: Expression {}

#[cfg(test)]
mod tests {
    use diesel::pg::Pg;
    use diesel::prelude::*;
    use diesel::query_builder::QueryFragment;
    use diesel::sql_types::{BigInt, Bool};

    use super::{fixed, fixed_bind};
    use crate::platform::db::schema::items;

    fn cacheable<Q: QueryFragment<Pg>>(query: &Q) -> bool {
        query.is_safe_to_cache_prepared(&Pg).unwrap_or(false)
    }

    #[test]
    fn statements_with_fixed_fragments_stay_cacheable() {
        let page = items::table
            .into_boxed::<Pg>()
            .filter(fixed_bind::<Bool, BigInt, _>(
                "items.category_id = ",
                7_i64,
                "",
            ))
            .select((items::id, fixed::<BigInt>("COUNT(*) OVER()")));
        assert!(cacheable(&page));
        assert_eq!(
            diesel::debug_query::<Pg, _>(&page).to_string(),
            "SELECT \"items\".\"id\", COUNT(*) OVER() FROM \"items\" \
             WHERE items.category_id = $1 -- binds: [7]"
        );
        // What it replaces: diesel's literal SQL makes every statement a one-off.
        let literal = items::table.select((items::id, diesel::dsl::sql::<BigInt>("1")));
        assert!(!cacheable(&literal));
    }
}
