//! Cross-cutting HTTP concerns shared by every route: request correlation and access logs,
//! security headers, the client's address. Business modules never import axum; these do.

pub mod answer_cache;
pub mod client_ip;
pub mod csrf;
pub mod graphql;
pub mod meta;
pub mod overload;
pub mod request_context;
pub mod security_headers;
pub mod state;
pub mod subscriptions;

pub use client_ip::ClientIp;
pub use request_context::RequestId;
