//! Materials and stock imports (CONTRACT 5.11 and onboarding step 6; admins only, spec
//! 4.5): the material catalogue (material types, colours and which colours each type
//! comes in), the materials CSV import that fills it together with the material items and
//! their opening stock, and the inventory CSV import. Both imports read files through the
//! shared engine ([`crate::platform::import`]), write in one database transaction, post stock
//! through the inventory ledger and book opening balances (so does a new material item,
//! [`items`]) as inventory / 3000 Owner's
//! equity (DOMAIN "Manual transactions").

pub mod catalogue;
pub mod graphql;
pub mod import;
pub mod items;
pub mod model;
pub mod rest;
pub mod rules;
pub mod stock_import;
