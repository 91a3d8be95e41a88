//! Who did something, by name: the display names of users for the histories that record a
//! user id (order events, ...), one query per batch.

use std::collections::HashMap;

use async_graphql::dataloader::{DataLoader, HashMapCache, Loader};
use diesel::prelude::*;
use diesel_async::RunQueryDsl;

use crate::platform::db::DbPool;
use crate::platform::db::schema::users;
use crate::platform::error::AppError;

/// Users' display names: "First Last", else whichever name exists, else the e-mail address.
pub struct UserNamesLoader {
    /// The pool.
    pub pool: DbPool,
}

/// A user's display name from the parts its row holds.
pub fn display_name(first: Option<&str>, last: Option<&str>, email: &str) -> String {
    let name = [first, last]
        .into_iter()
        .flatten()
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    if name.is_empty() {
        email.to_string()
    } else {
        name
    }
}

impl Loader<i64> for UserNamesLoader {
    type Value = String;
    type Error = AppError;
    async fn load(&self, keys: &[i64]) -> Result<HashMap<i64, String>, AppError> {
        let mut conn = self.pool.get().await?;
        let rows: Vec<(i64, Option<String>, Option<String>, String)> = users::table
            .filter(users::id.eq_any(keys))
            .select((users::id, users::first_name, users::last_name, users::email))
            .load(&mut conn)
            .await?;
        Ok(rows
            .into_iter()
            .map(|(id, first, last, email)| {
                (id, display_name(first.as_deref(), last.as_deref(), &email))
            })
            .collect())
    }
}

/// Per-request user display names.
pub type UserNames = DataLoader<UserNamesLoader, HashMapCache>;

/// Attaches the identity loaders to a request.
pub fn attach(request: async_graphql::Request, pool: &DbPool) -> async_graphql::Request {
    request.data(DataLoader::with_cache(
        UserNamesLoader { pool: pool.clone() },
        crate::platform::graphql::context::spawn_in_current_span,
        HashMapCache::default(),
    ))
}
