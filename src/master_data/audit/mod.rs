//! The security audit log: an append-only record of security events (DOMAIN.md) with user,
//! address, user agent, request id and outcome; listed at `GET /security/audit-log/`.

pub mod graphql;
pub mod model;
pub mod rest;

pub use model::{AuditEvent, Outcome, rate_limited, record, record_in};
pub mod remediate;
pub mod scan;
