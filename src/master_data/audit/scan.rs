//! The configuration security scan (CONTRACT 5.17, `GET /security/audit`): checks on this
//! deployment's real configuration (secret key, environment, HTTPS, CORS origins, mail,
//! proxies, rate limits, database, error tracking), in the original's report shape. Admins
//! only: the report tells an attacker where the weak spots are. Nothing here changes the
//! configuration; each failing check says how to fix it.

use std::collections::HashSet;
use std::net::{IpAddr, Ipv4Addr};

use async_graphql::{Context, Enum, Object, SimpleObject};
use diesel::QueryableByName;
use diesel::sql_types::Text;
use diesel_async::RunQueryDsl;

use crate::platform::auth::Access;
use crate::platform::config::Config;
use crate::platform::error::AppResult;
use crate::platform::graphql::context;
use crate::platform::graphql::scalars::Timestamp;

/// The report format's version (the original's `audit_version`).
pub const AUDIT_VERSION: &str = "1.0";

/// A secret key drawn from fewer distinct hex digits than this is a pattern, not randomness
/// (32 random bytes use about all 16).
const MIN_DISTINCT_KEY_DIGITS: usize = 8;

/// How much a failing check matters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[graphql(rename_items = "snake_case")]
pub enum CheckCategory {
    /// An attacker can use it.
    Critical,
    /// Weakens the deployment.
    Warning,
    /// Worth knowing.
    Info,
}

/// The outcome of one check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[graphql(rename_items = "snake_case")]
pub enum CheckStatus {
    /// Fine.
    Pass,
    /// Must be fixed.
    Fail,
    /// Should be looked at.
    Warn,
    /// For information.
    Info,
}

/// The verdict over all checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[graphql(rename_items = "snake_case")]
pub enum OverallStatus {
    /// Every check passed or is informational.
    Pass,
    /// Nothing fails, something should be looked at.
    Warn,
    /// At least one check fails.
    Fail,
}

/// One check of the scan.
#[derive(Debug, Clone, SimpleObject)]
pub struct SecurityCheck {
    /// Stable identifier (`secret_key`, `https`, ...).
    pub id: &'static str,
    /// Title.
    pub name: &'static str,
    /// How much it matters.
    pub category: CheckCategory,
    /// The outcome.
    pub status: CheckStatus,
    /// What was found.
    pub message: String,
    /// More about what was found.
    pub details: Option<String>,
    /// How to fix it, when it is not passing.
    pub remediation: Option<String>,
}

/// Counts over the checks.
#[derive(Debug, Clone, SimpleObject)]
pub struct SecuritySummary {
    /// Checks run.
    pub total_checks: i32,
    /// Passed.
    pub passed: i32,
    /// Failed.
    pub failed: i32,
    /// Warnings.
    pub warnings: i32,
    /// Informational.
    pub info: i32,
    /// The verdict.
    pub overall_status: OverallStatus,
}

/// What the scan ran on.
#[derive(Debug, Clone, SimpleObject)]
pub struct SecuritySystemInfo {
    /// Operating system and architecture.
    pub os: String,
    /// Always null: Strata is not a Python service (the original's key is kept).
    pub python_version: Option<String>,
    /// The database server's version.
    pub database: String,
    /// The trusted reverse proxies, or `none configured`.
    pub reverse_proxy: String,
}

/// The whole report.
#[derive(Debug, Clone, SimpleObject)]
pub struct SecurityScan {
    /// The report format's version.
    pub audit_version: &'static str,
    /// When the scan ran.
    pub generated_at: Timestamp,
    /// The Strata version (the original's key is kept).
    pub filaops_version: &'static str,
    /// `development` or `production`.
    pub environment: &'static str,
    /// Counts.
    pub summary: SecuritySummary,
    /// Every check.
    pub checks: Vec<SecurityCheck>,
    /// What it ran on.
    pub system_info: SecuritySystemInfo,
}

/// The only export format offered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[graphql(rename_items = "snake_case")]
pub enum ScanExportFormat {
    /// The report as a JSON file.
    Json,
}

fn check(
    id: &'static str,
    name: &'static str,
    category: CheckCategory,
    status: CheckStatus,
    message: impl Into<String>,
    remediation: Option<&str>,
) -> SecurityCheck {
    SecurityCheck {
        id,
        name,
        category,
        status,
        message: message.into(),
        details: None,
        remediation: if status == CheckStatus::Pass {
            None
        } else {
            remediation.map(str::to_owned)
        },
    }
}

/// How a password reset is approved: by mail, by an admin, or (development, or production
/// with `PASSWORD_RESET_AUTO_APPROVE=true`) at once for anyone who asks: critical in
/// production, since whoever knows an address can take the account.
fn password_reset_check(config: &Config, mail: bool) -> SecurityCheck {
    let open_in_production = config.is_production() && !mail && config.password_reset_auto_approve;
    let (category, status, message) = if mail {
        (
            CheckCategory::Info,
            CheckStatus::Pass,
            "Reset requests are e-mailed to an admin for approval",
        )
    } else if open_in_production {
        (
            CheckCategory::Critical,
            CheckStatus::Fail,
            "PASSWORD_RESET_AUTO_APPROVE is on without mail: anyone who knows an address gets its reset link",
        )
    } else if config.password_reset_auto_approve {
        (
            CheckCategory::Info,
            CheckStatus::Info,
            "Development: without mail, a reset request is approved at once and its link answered",
        )
    } else {
        (
            CheckCategory::Info,
            CheckStatus::Info,
            "Without mail, reset requests wait for an admin on the Team Members page",
        )
    };
    check(
        "password_reset",
        "Password reset without mail",
        category,
        status,
        message,
        Some(if open_in_production {
            "Unset PASSWORD_RESET_AUTO_APPROVE, or configure mail"
        } else {
            "Configure mail so reset requests reach an admin by e-mail"
        }),
    )
}

/// The configuration checks (everything but the database, which needs a connection).
pub fn config_checks(config: &Config) -> Vec<SecurityCheck> {
    let mail = config.smtp.is_configured();
    vec![
        secret_key_check(config),
        environment_check(config),
        https_check(config),
        cors_check(config),
        mail_check(config, mail),
        password_reset_check(config, mail),
        trusted_proxies_check(config),
        rate_limit_check(),
        error_tracking_check(config),
    ]
}

/// Whether `SECRET_KEY` is set and looks random (a generated key fails in production).
fn secret_key_check(config: &Config) -> SecurityCheck {
    let production = config.is_production();
    let distinct: HashSet<char> = config.secret_key.expose().chars().collect();
    if config.secret_key_generated {
        check(
            "secret_key",
            "Secret key",
            CheckCategory::Critical,
            if production {
                CheckStatus::Fail
            } else {
                CheckStatus::Warn
            },
            "SECRET_KEY is not set: a random key is used, so every session ends at restart",
            Some("Set SECRET_KEY to 64 hexadecimal characters (`openssl rand -hex 32`)"),
        )
    } else if distinct.len() < MIN_DISTINCT_KEY_DIGITS {
        check(
            "secret_key",
            "Secret key",
            CheckCategory::Critical,
            CheckStatus::Fail,
            "SECRET_KEY is a pattern, not random bytes",
            Some("Generate a new key with `openssl rand -hex 32`"),
        )
    } else {
        check(
            "secret_key",
            "Secret key",
            CheckCategory::Critical,
            CheckStatus::Pass,
            "SECRET_KEY is set and strong",
            None,
        )
    }
}

/// Whether `ENVIRONMENT` is production.
fn environment_check(config: &Config) -> SecurityCheck {
    let production = config.is_production();
    check(
        "environment",
        "Environment",
        CheckCategory::Warning,
        if production {
            CheckStatus::Pass
        } else {
            CheckStatus::Warn
        },
        if production {
            "ENVIRONMENT is production"
        } else {
            "ENVIRONMENT is development: secure cookies, HSTS and strict checks are off"
        },
        Some("Set ENVIRONMENT=production on a real deployment"),
    )
}

/// Whether HSTS is sent and `FRONTEND_URL` uses https.
fn https_check(config: &Config) -> SecurityCheck {
    let production = config.is_production();
    let https_frontend = config.frontend_url.starts_with("https://");
    check(
        "https",
        "HTTPS and HSTS",
        CheckCategory::Critical,
        match (production, https_frontend) {
            (true, true) => CheckStatus::Pass,
            (true, false) => CheckStatus::Fail,
            (false, _) => CheckStatus::Warn,
        },
        match (production, https_frontend) {
            (true, true) => "HSTS is sent and FRONTEND_URL uses https",
            (true, false) => "FRONTEND_URL does not use https: links and cookies travel in clear",
            (false, _) => "HSTS is only sent in production",
        },
        Some(
            "Serve Strata behind TLS, set FRONTEND_URL to its https:// address and ENVIRONMENT=production",
        ),
    )
}

/// Whether `ALLOWED_ORIGINS` allows every origin (fail) or a remote plain-http one (warn).
fn cors_check(config: &Config) -> SecurityCheck {
    let wildcard = config.allowed_origins.iter().any(|o| o == "*");
    let plain_remote = config.allowed_origins.iter().any(|o| {
        o.starts_with("http://") && !o.contains("://localhost") && !o.contains("://127.0.0.1")
    });
    check(
        "cors_origins",
        "Allowed origins (CORS)",
        CheckCategory::Critical,
        if wildcard {
            CheckStatus::Fail
        } else if plain_remote {
            CheckStatus::Warn
        } else {
            CheckStatus::Pass
        },
        if wildcard {
            "ALLOWED_ORIGINS allows every origin".to_owned()
        } else {
            format!("ALLOWED_ORIGINS: {}", config.allowed_origins.join(", "))
        },
        Some("List the exact https:// origins of the front end in ALLOWED_ORIGINS"),
    )
}

/// Whether outgoing mail is configured (`mail`).
fn mail_check(config: &Config, mail: bool) -> SecurityCheck {
    check(
        "mail",
        "Outgoing mail",
        CheckCategory::Warning,
        if mail {
            CheckStatus::Pass
        } else {
            CheckStatus::Warn
        },
        if mail {
            format!("Mail is sent through {}", config.smtp.host_or_default())
        } else {
            "SMTP_USER and SMTP_PASSWORD are not set: no mail is sent".to_owned()
        },
        Some("Set SMTP_HOST, SMTP_USER, SMTP_PASSWORD and SMTP_FROM_EMAIL"),
    )
}

/// Whether `TRUSTED_PROXIES` trusts public addresses (fail), nothing (info) or some proxies.
fn trusted_proxies_check(config: &Config) -> SecurityCheck {
    let trusts_everyone = config
        .trusted_proxies
        .iter()
        .any(|p| p.contains(IpAddr::V4(Ipv4Addr::new(8, 8, 8, 8))));
    check(
        "trusted_proxies",
        "Trusted proxies",
        CheckCategory::Warning,
        if trusts_everyone {
            CheckStatus::Fail
        } else if config.trusted_proxies.is_empty() {
            CheckStatus::Info
        } else {
            CheckStatus::Pass
        },
        if trusts_everyone {
            "TRUSTED_PROXIES includes public addresses: anyone can forge their address (and dodge rate limits)".to_owned()
        } else if config.trusted_proxies.is_empty() {
            "No proxy is trusted: X-Forwarded-For is ignored".to_owned()
        } else {
            format!("X-Forwarded-For is believed from {}", proxies(config))
        },
        Some("List only your reverse proxy's addresses in TRUSTED_PROXIES"),
    )
}

/// The rate limits, which are always on.
fn rate_limit_check() -> SecurityCheck {
    check(
        "rate_limiting",
        "Rate limits",
        CheckCategory::Critical,
        CheckStatus::Pass,
        "Login, password reset and setup are rate limited per address",
        None,
    )
}

/// Whether server errors are reported to an error tracker (`ERRORTRACK_DSN`).
fn error_tracking_check(config: &Config) -> SecurityCheck {
    let tracking = config.errortrack_dsn.is_some();
    check(
        "error_tracking",
        "Error tracking",
        CheckCategory::Info,
        if tracking {
            CheckStatus::Pass
        } else {
            CheckStatus::Info
        },
        if tracking {
            "Server errors are reported to the error tracker"
        } else {
            "ERRORTRACK_DSN is not set: server errors are only logged"
        },
        Some("Set ERRORTRACK_DSN to report server errors"),
    )
}

fn proxies(config: &Config) -> String {
    config
        .trusted_proxies
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Counts and the verdict.
pub fn summarize(checks: &[SecurityCheck]) -> SecuritySummary {
    let count = |s: CheckStatus| checks.iter().filter(|c| c.status == s).count() as i32;
    let (passed, failed, warnings, info) = (
        count(CheckStatus::Pass),
        count(CheckStatus::Fail),
        count(CheckStatus::Warn),
        count(CheckStatus::Info),
    );
    SecuritySummary {
        total_checks: checks.len() as i32,
        passed,
        failed,
        warnings,
        info,
        overall_status: if failed > 0 {
            OverallStatus::Fail
        } else if warnings > 0 {
            OverallStatus::Warn
        } else {
            OverallStatus::Pass
        },
    }
}

#[derive(QueryableByName)]
struct ServerVersion {
    #[diesel(sql_type = Text)]
    version: String,
}

async fn scan(ctx: &Context<'_>) -> AppResult<SecurityScan> {
    let config = context::config(ctx)?;
    let pool = context::pool(ctx)?;
    let mut checks = config_checks(config);
    let database_ok = crate::platform::health::database_ok(pool).await;
    let database = if database_ok {
        let mut conn = context::conn(ctx).await?;
        let v: ServerVersion = diesel::sql_query("SELECT version() AS version")
            .get_result(&mut *conn)
            .await?;
        // `PostgreSQL 16.4 on x86_64-pc-linux-gnu, ...`: the first two words say enough.
        v.version
            .split_whitespace()
            .take(2)
            .collect::<Vec<_>>()
            .join(" ")
    } else {
        "unreachable".to_owned()
    };
    checks.push(check(
        "database",
        "Database",
        CheckCategory::Critical,
        if database_ok {
            CheckStatus::Pass
        } else {
            CheckStatus::Fail
        },
        if database_ok {
            "The database answers"
        } else {
            "The database does not answer"
        },
        Some("Check DATABASE_URL and that PostgreSQL is running"),
    ));
    Ok(SecurityScan {
        audit_version: AUDIT_VERSION,
        generated_at: Timestamp(chrono::Utc::now()),
        filaops_version: env!("CARGO_PKG_VERSION"),
        environment: config.environment.as_str(),
        summary: summarize(&checks),
        checks,
        system_info: SecuritySystemInfo {
            os: format!("{} {}", std::env::consts::OS, std::env::consts::ARCH),
            python_version: None,
            database,
            reverse_proxy: if config.trusted_proxies.is_empty() {
                "none configured".to_owned()
            } else {
                proxies(config)
            },
        },
    })
}

/// The configuration scan's queries.
#[derive(Default)]
pub struct SecurityScanQuery;

#[Object]
impl SecurityScanQuery {
    /// The configuration security scan of this deployment (admins).
    #[graphql(guard = "Access::Admin")]
    async fn security_scan(&self, ctx: &Context<'_>) -> AppResult<SecurityScan> {
        scan(ctx).await
    }

    /// The scan as a file to save (admins): the same report, sent with
    /// `Content-Disposition: attachment` naming the file by date.
    #[graphql(guard = "Access::Admin")]
    async fn security_scan_export(
        &self,
        ctx: &Context<'_>,
        #[graphql(default_with = "ScanExportFormat::Json")] format: ScanExportFormat,
    ) -> AppResult<SecurityScan> {
        let report = scan(ctx).await?;
        let ScanExportFormat::Json = format;
        let name = format!(
            "security-audit-{}.json",
            report.generated_at.0.format("%Y%m%d-%H%M%S")
        );
        // The name is ASCII digits and dashes only, so it needs no quoting beyond this.
        ctx.insert_http_header(
            "Content-Disposition",
            format!("attachment; filename=\"{name}\""),
        );
        Ok(report)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_verdict_follows_the_worst_check() {
        let c = |s| check("x", "x", CheckCategory::Info, s, "", None);
        assert_eq!(
            summarize(&[c(CheckStatus::Pass), c(CheckStatus::Info)]).overall_status,
            OverallStatus::Pass
        );
        assert_eq!(
            summarize(&[c(CheckStatus::Pass), c(CheckStatus::Warn)]).overall_status,
            OverallStatus::Warn
        );
        let s = summarize(&[
            c(CheckStatus::Fail),
            c(CheckStatus::Warn),
            c(CheckStatus::Info),
        ]);
        assert_eq!((s.total_checks, s.failed, s.warnings, s.info), (3, 1, 1, 1));
        assert_eq!(s.overall_status, OverallStatus::Fail);
    }
}
