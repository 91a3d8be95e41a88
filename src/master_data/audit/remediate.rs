//! Remediation guidance for the security scan (`/security/remediate/*`, admins).
//!
//! The original edited files and opened programs on the server host from these routes.
//! Strata never runs a command, opens a program or writes a host file because of an HTTP
//! request: every route answers what an operator must do (steps, commands to run on the
//! host, the documentation), with `automated: false` and, for the action routes,
//! `applied: false`. Two routes do something of their own: `generate-secret-key` answers a
//! fresh random key (from the operating system's CSPRNG, never stored or logged) for the
//! operator to put in the environment, and `check-caddy` reports what the request itself
//! says about a TLS-terminating reverse proxy. Every call is recorded in the security audit
//! log (`security_remediation`; never the generated key).

use async_graphql::{Context, Enum, Object, SimpleObject};

use crate::master_data::audit::scan::{CheckCategory, CheckStatus, SecurityCheck, config_checks};
use crate::master_data::audit::{AuditEvent, Outcome};
use crate::platform::auth::Access;
use crate::platform::auth::viewer::current_user;
use crate::platform::config::Config;
use crate::platform::error::{AppError, AppResult};
use crate::platform::graphql::context;
use crate::platform::graphql::user_error::{UserError, UserErrorCode};

use crate::platform::config::SECRET_KEY_BYTES;

/// The message of every action route: nothing on the host was changed.
pub const NOT_APPLIED: &str = "Strata does not change the server from a request: nothing was applied. Follow these steps on the host.";

/// The action routes of the original (`POST /security/remediate/<topic>`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum, strum::AsRefStr, strum::VariantArray)]
#[graphql(rename_items = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum RemediationTopic {
    /// Keeping dependencies up to date.
    FixDependencies,
    /// Not serving hidden files (`.env`, `.git`).
    FixDotfileBlocking,
    /// Rate limits.
    FixRateLimiting,
    /// Editing the environment file.
    OpenEnvFile,
    /// Restarting after a configuration change.
    OpenRestartTerminal,
    /// Serving over HTTPS.
    SetupHttps,
}

/// What an operator must do about one check or topic.
#[derive(Debug, Clone, SimpleObject)]
pub struct SecurityRemediation {
    /// The scan check it is about (`secret_key`, `https`...), or the topic's own id
    /// (`dependencies`, `dotfile_blocking`, `environment_file`, `restart`) when the scan
    /// has no such check.
    pub check_id: String,
    /// Title.
    pub title: String,
    /// How much it matters.
    pub severity: CheckCategory,
    /// The check's status in this deployment now (null for a topic the scan does not check).
    pub status: Option<CheckStatus>,
    /// What to do, in order.
    pub steps: Vec<&'static str>,
    /// Commands to run on the host (null when there are none).
    pub commands: Option<Vec<&'static str>>,
    /// Where the operations guide explains it.
    pub docs: Option<&'static str>,
    /// Always false: Strata applies nothing itself.
    pub automated: bool,
    /// Always false: nothing was changed on the host.
    pub applied: bool,
    /// What happened.
    pub message: String,
}

/// The result of an action route.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct SecurityRemediationPayload {
    /// The guidance.
    pub remediation: Option<SecurityRemediation>,
    /// Why the action is refused (`update-secret-key`).
    pub user_errors: Vec<UserError>,
}

/// A freshly generated secret key for the operator to install.
#[derive(Debug, Clone, SimpleObject)]
pub struct GeneratedSecretKey {
    /// The key: 32 random bytes as 64 hexadecimal characters (what `SECRET_KEY` takes).
    /// Shown once; Strata does not keep it.
    pub secret_key: String,
    /// `hex`.
    pub encoding: &'static str,
    /// Bits of randomness.
    pub bits: i32,
    /// The environment variable to put it in.
    pub env_var: &'static str,
    /// What to do with it.
    pub steps: Vec<&'static str>,
    /// Always false: the running key is unchanged.
    pub applied: bool,
    /// What happened.
    pub message: &'static str,
}

/// The result of generating a key.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct GeneratedSecretKeyPayload {
    /// The key.
    pub result: Option<GeneratedSecretKey>,
    /// Never set (the payload shape of every mutation).
    pub user_errors: Vec<UserError>,
}

/// What this request says about a reverse proxy in front of Strata.
#[derive(Debug, Clone, SimpleObject)]
pub struct SecurityProxyCheck {
    /// `https` (the scan check this belongs to).
    pub check_id: &'static str,
    /// Title.
    pub title: &'static str,
    /// How much it matters.
    pub severity: CheckCategory,
    /// `pass` when the request came through a proxy that terminated TLS, else `warn`.
    pub status: CheckStatus,
    /// Whether a proxy's `X-Forwarded-Proto` came with the request.
    pub proxy_detected: bool,
    /// Whether that header says the client used HTTPS.
    pub tls: bool,
    /// The header's value (`http` or `https`), when present.
    pub forwarded_proto: Option<String>,
    /// Whether `TRUSTED_PROXIES` names any proxy.
    pub trusted_proxies_configured: bool,
    /// What was found.
    pub message: String,
    /// What to do, in order.
    pub steps: Vec<&'static str>,
    /// Commands to run on the host.
    pub commands: Option<Vec<&'static str>>,
    /// Where the operations guide explains it.
    pub docs: Option<&'static str>,
    /// Always false.
    pub automated: bool,
}

/// The fixed guidance of one id.
struct Guide {
    steps: &'static [&'static str],
    commands: &'static [&'static str],
    docs: Option<&'static str>,
}

const OPS: Option<&str> = Some("docs/OPERATIONS.md");

const HTTPS_STEPS: &[&str] = &[
    "Put a TLS terminator (Caddy, Traefik, a cloud load balancer or another nginx) in front of the web container: the nginx in docker/ speaks plain HTTP",
    "Have the terminator send X-Forwarded-Proto; docker/nginx/snippets/proxy-api.conf passes it on to the API",
    "When the terminator runs on the same host, publish the web service on loopback only (compose.override.yml: ports \"127.0.0.1:8080:8080\")",
    "Set FRONTEND_URL and ALLOWED_ORIGINS to the https:// address and ENVIRONMENT=production in docker/.env, then restart",
    "Add Strict-Transport-Security at the terminator for the static files (the API adds it to its own answers in production)",
];

const RATE_STEPS: &[&str] = &[
    "Nothing to install: sign-in, password reset and setup are rate limited per client address inside Strata",
    "Behind a reverse proxy, list the proxy's addresses in TRUSTED_PROXIES so the limits count real clients, not the proxy",
    "Optionally add limit_req at the reverse proxy as a second line of defence",
];

/// The guidance for a scan check id or a topic's id; `None` for an unknown id.
fn guide(id: &str) -> Option<Guide> {
    settings_guide(id).or_else(|| host_guide(id))
}

/// A guide of these steps, commands and documentation.
fn guide_of(
    steps: &'static [&'static str],
    commands: &'static [&'static str],
    docs: Option<&'static str>,
) -> Option<Guide> {
    Some(Guide {
        steps,
        commands,
        docs,
    })
}

/// The guidance for the deployment's settings (key, environment, HTTPS, origins, mail,
/// proxies, rate limits, error tracking); `None` for another id.
fn settings_guide(id: &str) -> Option<Guide> {
    match id {
        "secret_key" => guide_of(
            &[
                "Generate a key: 32 random bytes as 64 hexadecimal characters (POST /security/remediate/generate-secret-key answers one)",
                "Put it in the deployment's environment as SECRET_KEY (docker/.env: SECRET_KEY=...)",
                "Restart the API; every session ends and users sign in again",
            ],
            &["openssl rand -hex 32", "docker compose up -d"],
            OPS,
        ),
        "environment" => guide_of(
            &[
                "Set ENVIRONMENT=production in docker/.env on a real deployment",
                "Production turns on secure cookies, HSTS and the strict start-up checks (well-known database passwords, a malformed SECRET_KEY and wildcard origins are refused)",
                "Restart the API",
            ],
            &["docker compose up -d"],
            OPS,
        ),
        "https" => guide_of(HTTPS_STEPS, &["docker compose up -d"], OPS),
        "cors_origins" => guide_of(
            &[
                "List the exact origins of the front end in ALLOWED_ORIGINS, comma separated (https://erp.example.com), never *",
                "Restart the API",
            ],
            &["docker compose up -d"],
            OPS,
        ),
        "mail" | "password_reset" => guide_of(
            &[
                "Set SMTP_HOST, SMTP_PORT, SMTP_USER, SMTP_PASSWORD and SMTP_FROM_EMAIL in docker/.env (SMTP_SECURITY starttls or tls)",
                "Restart the API; users can then reset their own passwords by e-mail",
            ],
            &["docker compose up -d"],
            OPS,
        ),
        "trusted_proxies" => guide_of(
            &[
                "List only your reverse proxies' addresses or networks in TRUSTED_PROXIES (the compose network is 172.30.57.0/24)",
                "Never list networks untrusted clients connect from: anyone inside can claim any address",
                "Restart the API",
            ],
            &["docker compose up -d"],
            OPS,
        ),
        "rate_limiting" => guide_of(RATE_STEPS, &[], OPS),
        "error_tracking" => guide_of(
            &[
                "Set ERRORTRACK_DSN to a Sentry-protocol DSN (https://KEY@HOST/PROJECT_ID) in docker/.env",
                "Restart the API",
            ],
            &["docker compose up -d"],
            OPS,
        ),
        _ => None,
    }
}

/// The guidance for the host (database, dependencies, hidden files, the environment file,
/// restarts); `None` for another id.
fn host_guide(id: &str) -> Option<Guide> {
    match id {
        "database" => guide_of(
            &[
                "Check that PostgreSQL runs and is healthy",
                "Check DATABASE_URL (or DB_HOST, DB_PORT, DB_NAME, DB_USER, DB_PASSWORD) in docker/.env",
                "Read the database's log for the cause",
            ],
            &["docker compose ps db", "docker compose logs db"],
            OPS,
        ),
        "dependencies" => guide_of(
            &[
                "Strata is one binary: its dependencies are pinned (Cargo.lock, frontend/package-lock.json) and built into the release image; nothing is installed on the host at run time",
                "Update by deploying a newer release: back up, check out the release tag, rebuild and restart",
                "Audit the pinned dependencies in CI (cargo audit, npm audit)",
            ],
            &[
                "git fetch --tags && git checkout <release-tag>",
                "docker compose build",
                "docker compose up -d",
            ],
            OPS,
        ),
        "dotfile_blocking" => guide_of(
            &[
                "The API serves no files from disk but the built SPA and its own uploads; docker/.env is never under the SPA directory",
                "The web tier (docker/nginx/templates/default.conf.template) serves only the SPA build; to refuse hidden files explicitly, add `location ~ /\\. { return 404; }` to its server block and rebuild the web image",
                "Keep docker/.env readable by the deploying user only",
            ],
            &[
                "chmod 600 docker/.env",
                "docker compose build web && docker compose up -d",
            ],
            OPS,
        ),
        "environment_file" => guide_of(
            &[
                "Strata does not open files or programs on the server",
                "On the host, edit docker/.env (start from docker/.env.example): SECRET_KEY, DB_PASSWORD, ALLOWED_ORIGINS, FRONTEND_URL, SMTP_* and the other variables",
                "Check the configuration the API uses (secrets shown as ***)",
            ],
            &[
                "cp docker/.env.example docker/.env",
                "$EDITOR docker/.env",
                "docker compose exec api strata config",
            ],
            OPS,
        ),
        "restart" => guide_of(
            &[
                "Strata does not restart itself from a request",
                "After changing docker/.env, re-create the containers whose settings changed",
                "Follow the start-up in the API's log",
            ],
            &["docker compose up -d", "docker compose logs -f api"],
            OPS,
        ),
        _ => None,
    }
}

impl RemediationTopic {
    /// The id its guidance is filed under (a scan check's id when the scan checks it).
    pub fn guide_id(self) -> &'static str {
        match self {
            RemediationTopic::FixDependencies => "dependencies",
            RemediationTopic::FixDotfileBlocking => "dotfile_blocking",
            RemediationTopic::FixRateLimiting => "rate_limiting",
            RemediationTopic::OpenEnvFile => "environment_file",
            RemediationTopic::OpenRestartTerminal => "restart",
            RemediationTopic::SetupHttps => "https",
        }
    }

    fn title(self) -> &'static str {
        match self {
            RemediationTopic::FixDependencies => "Dependencies",
            RemediationTopic::FixDotfileBlocking => "Hidden files (.env, .git) are not served",
            RemediationTopic::FixRateLimiting => "Rate limits",
            RemediationTopic::OpenEnvFile => "The environment file",
            RemediationTopic::OpenRestartTerminal => "Restarting after a change",
            RemediationTopic::SetupHttps => "HTTPS and HSTS",
        }
    }
}

/// The scan's checks now (the configuration ones, plus the database's).
async fn checks(ctx: &Context<'_>, config: &Config) -> AppResult<Vec<SecurityCheck>> {
    let mut all = config_checks(config);
    let up = crate::platform::health::database_ok(context::pool(ctx)?).await;
    all.push(SecurityCheck {
        id: "database",
        name: "Database",
        category: CheckCategory::Critical,
        status: if up {
            CheckStatus::Pass
        } else {
            CheckStatus::Fail
        },
        message: String::new(),
        details: None,
        remediation: None,
    });
    Ok(all)
}

fn remediation(
    check_id: &str,
    title: &str,
    severity: CheckCategory,
    status: Option<CheckStatus>,
    message: &str,
) -> AppResult<SecurityRemediation> {
    let g = guide(check_id)
        .ok_or_else(|| AppError::internal(format!("no remediation guidance for {check_id}")))?;
    Ok(SecurityRemediation {
        check_id: check_id.to_owned(),
        title: title.to_owned(),
        severity,
        status,
        steps: g.steps.to_vec(),
        commands: (!g.commands.is_empty()).then(|| g.commands.to_vec()),
        docs: g.docs,
        automated: false,
        applied: false,
        message: message.to_owned(),
    })
}

async fn audit(ctx: &Context<'_>, action: &str, check_id: &str, outcome: Outcome) -> AppResult<()> {
    let actor = current_user(ctx).await?;
    crate::master_data::audit::record(
        context::pool(ctx)?,
        context::meta(ctx),
        AuditEvent::new("security_remediation", outcome)
            .user(actor.id, &actor.email)
            .details(serde_json::json!({ "action": action, "check_id": check_id })),
    )
    .await;
    Ok(())
}

/// Remediation queries.
#[derive(Default)]
pub struct SecurityRemediationQuery;

#[Object]
impl SecurityRemediationQuery {
    /// How to fix one check of the security scan (admins), with its status now; an id the
    /// scan does not have is NOT_FOUND. Audited.
    #[graphql(guard = "Access::Admin")]
    async fn security_remediation(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The scan check's id (`secret_key`, `https`, ...).")] check_id: String,
    ) -> AppResult<SecurityRemediation> {
        let config = context::config(ctx)?;
        let all = checks(ctx, config).await?;
        let Some(check) = all.iter().find(|c| c.id == check_id) else {
            let known = all.iter().map(|c| c.id).collect::<Vec<_>>().join(", ");
            return Err(AppError::not_found(format!(
                "Unknown security check '{check_id}'. Known checks: {known}"
            )));
        };
        audit(ctx, "guidance", check.id, Outcome::Success).await?;
        let message = if check.status == CheckStatus::Pass {
            "This check passes: nothing to do."
        } else {
            "Strata does not change the server itself: follow these steps on the host."
        };
        remediation(
            check.id,
            check.name,
            check.category,
            Some(check.status),
            message,
        )
    }

    /// Whether this request came through a reverse proxy that terminated TLS, from its
    /// `X-Forwarded-Proto` (admins; the original's Caddy check). Guidance only: a client
    /// can send the header too. Audited.
    #[graphql(guard = "Access::Admin")]
    async fn security_proxy_check(&self, ctx: &Context<'_>) -> AppResult<SecurityProxyCheck> {
        let config = context::config(ctx)?;
        let proto = context::meta(ctx).and_then(|m| m.forwarded_proto.clone());
        let tls = proto.as_deref() == Some("https");
        audit(ctx, "check_caddy", "https", Outcome::Success).await?;
        let message = match proto.as_deref() {
            Some("https") => {
                "A reverse proxy forwarded this request from an HTTPS connection (X-Forwarded-Proto: https)"
            }
            Some(_) => {
                "A reverse proxy forwarded this request from a plain HTTP connection: put TLS in front of it"
            }
            None => "No reverse proxy header came with this request: the API is reached directly",
        };
        let g = guide("https")
            .ok_or_else(|| AppError::internal("no remediation guidance for https"))?;
        Ok(SecurityProxyCheck {
            check_id: "https",
            title: "HTTPS reverse proxy",
            severity: CheckCategory::Critical,
            status: if tls {
                CheckStatus::Pass
            } else {
                CheckStatus::Warn
            },
            proxy_detected: proto.is_some(),
            tls,
            forwarded_proto: proto,
            trusted_proxies_configured: !config.trusted_proxies.is_empty(),
            message: message.to_owned(),
            steps: if tls { vec![] } else { g.steps.to_vec() },
            commands: None,
            docs: g.docs,
            automated: false,
        })
    }
}

/// Remediation actions (none changes the host).
#[derive(Default)]
pub struct SecurityRemediationMutation;

#[Object]
impl SecurityRemediationMutation {
    /// What an operator must do for one of the original's remediation actions (admins):
    /// nothing is applied (`applied: false`). Audited.
    #[graphql(guard = "Access::Admin")]
    async fn security_remediation_request(
        &self,
        ctx: &Context<'_>,
        topic: RemediationTopic,
    ) -> AppResult<SecurityRemediationPayload> {
        let config = context::config(ctx)?;
        let id = topic.guide_id();
        let scanned = config_checks(config).into_iter().find(|c| c.id == id);
        audit(ctx, topic.as_ref(), id, Outcome::Success).await?;
        let r = match &scanned {
            Some(c) => remediation(id, c.name, c.category, Some(c.status), NOT_APPLIED)?,
            None => remediation(id, topic.title(), CheckCategory::Warning, None, NOT_APPLIED)?,
        };
        Ok(SecurityRemediationPayload {
            remediation: Some(r),
            user_errors: vec![],
        })
    }

    /// A fresh random secret key for `SECRET_KEY` (admins): 32 bytes from the operating
    /// system's CSPRNG as 64 hexadecimal characters. Not stored, not logged, not applied;
    /// sent with `Cache-Control: no-store`. Audited (without the key).
    #[graphql(guard = "Access::Admin")]
    async fn security_secret_key_generate(
        &self,
        ctx: &Context<'_>,
    ) -> AppResult<GeneratedSecretKeyPayload> {
        let key = crate::platform::config::random_key_hex();
        audit(ctx, "generate_secret_key", "secret_key", Outcome::Success).await?;
        ctx.insert_http_header("Cache-Control", "no-store");
        Ok(GeneratedSecretKeyPayload {
            result: Some(GeneratedSecretKey {
                secret_key: key,
                encoding: "hex",
                bits: (SECRET_KEY_BYTES * 8) as i32,
                env_var: "SECRET_KEY",
                steps: vec![
                    "Copy the key now: Strata does not keep it",
                    "Put it in the deployment's environment: SECRET_KEY=<key> in docker/.env",
                    "Restart the API (docker compose up -d); every session ends and users sign in again",
                ],
                applied: false,
                message: "A new key was generated; the running key is unchanged until the API restarts with it",
            }),
            user_errors: vec![],
        })
    }

    /// Always refused (admins): the secret key is read from the environment at start-up,
    /// so it cannot be changed from a request. Audited as denied.
    #[graphql(guard = "Access::Admin")]
    async fn security_secret_key_update(
        &self,
        ctx: &Context<'_>,
    ) -> AppResult<SecurityRemediationPayload> {
        audit(ctx, "update_secret_key", "secret_key", Outcome::Denied).await?;
        Ok(SecurityRemediationPayload {
            remediation: None,
            user_errors: vec![UserError::general(
                UserErrorCode::NotAllowed,
                "SECRET_KEY is read from the server's environment at start-up and Strata does not change it from a request: put the new key in docker/.env (SECRET_KEY=<64 hex characters>) and restart the API (docker compose up -d)",
            )],
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use strum::VariantArray;

    #[test]
    fn every_check_and_topic_has_guidance() {
        let config = Config::from_vars([("DATABASE_URL", "postgres://u:p@localhost/strata")])
            .expect("config");
        for c in config_checks(&config) {
            assert!(guide(c.id).is_some(), "{}", c.id);
        }
        assert!(guide("database").is_some());
        for t in RemediationTopic::VARIANTS {
            assert!(guide(t.guide_id()).is_some(), "{t:?}");
        }
        assert!(guide("nope").is_none());
    }
}
