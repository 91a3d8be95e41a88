//! Authentication and authorization: password hashing, tokens, the [`Viewer`] of a request
//! and the role guards every GraphQL field (and so every REST route) goes through.

pub mod guard;
pub mod password;
pub mod rate_limit;
pub mod roles;
pub mod tokens;
pub mod viewer;

pub use guard::Access;
pub use viewer::{RequestMeta, Viewer};
