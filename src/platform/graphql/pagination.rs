//! Offset pagination shared by every list: `first` (default 50, at most 250) and `offset`,
//! answered as a connection with `totalCount`, `nodes` and `pageInfo`.

use async_graphql::SimpleObject;

use crate::platform::error::{AppError, AppResult, FieldError};

/// Page size when none is asked for.
pub const DEFAULT_PAGE_SIZE: i64 = 50;
/// Largest page size.
pub const MAX_PAGE_SIZE: i64 = 250;

/// A validated page request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Page {
    /// Rows to return.
    pub limit: i64,
    /// Rows to skip.
    pub offset: i64,
}

impl Page {
    /// Checks `first` (1..=250, default 50) and `offset` (>= 0, default 0).
    pub fn new(first: Option<i64>, offset: Option<i64>) -> AppResult<Page> {
        Self::with_max(first, offset, MAX_PAGE_SIZE)
    }

    /// Like [`Page::new`] with another maximum.
    pub fn with_max(first: Option<i64>, offset: Option<i64>, max: i64) -> AppResult<Page> {
        let limit = first.unwrap_or(DEFAULT_PAGE_SIZE);
        let offset = offset.unwrap_or(0);
        let mut errors = Vec::new();
        if !(1..=max).contains(&limit) {
            errors.push(
                FieldError::new("first", format!("Input should be between 1 and {max}"))
                    .with_kind("less_than_equal"),
            );
        }
        if offset < 0 {
            errors.push(
                FieldError::new("offset", "Input should be greater than or equal to 0")
                    .with_kind("greater_than_equal"),
            );
        }
        if errors.is_empty() {
            Ok(Page { limit, offset })
        } else {
            Err(AppError::validation(errors))
        }
    }

    /// The page info of a result with `total` rows.
    pub fn info(&self, total: i64) -> PageInfo {
        PageInfo {
            total,
            returned: (total - self.offset).clamp(0, self.limit),
            has_next_page: self.offset.saturating_add(self.limit) < total,
            has_previous_page: self.offset > 0,
            offset: self.offset,
            limit: self.limit,
        }
    }
}

/// Where a page sits in the whole list.
#[derive(Debug, Clone, SimpleObject)]
pub struct PageInfo {
    /// How many rows match, over all pages.
    pub total: i64,
    /// How many rows this page holds.
    pub returned: i64,
    /// More rows follow this page.
    pub has_next_page: bool,
    /// Rows precede this page.
    pub has_previous_page: bool,
    /// Rows skipped before this page.
    pub offset: i64,
    /// The page size asked for.
    pub limit: i64,
}

/// Declares a connection type `$name` over nodes of type `$node`.
#[macro_export]
macro_rules! connection {
    ($(#[$doc:meta])* $name:ident, $node:ty) => {
        $(#[$doc])*
        #[derive(Debug, Clone, async_graphql::SimpleObject)]
        pub struct $name {
            /// How many rows match, over all pages.
            pub total_count: i64,
            /// The rows of this page.
            pub nodes: $crate::platform::graphql::flat::FlatList<$node>,
            /// Where this page sits.
            pub page_info: $crate::platform::graphql::pagination::PageInfo,
        }
    };
}
