//! Layer 5, read models: views over everything below. The audit trail, the dashboard, and reports with
//! their bulk exports.

pub mod audit_trail;
pub mod dashboard;
pub mod reporting;
