//! Runtime configuration: every environment variable of spec 1.1 (plus Strata's own few),
//! parsed once at start-up into typed values.
//!
//! Parsing collects *all* problems before failing, so an operator fixes a broken `.env` in
//! one go; each problem names the variable and what it accepts. Nothing here panics.

use std::collections::HashMap;
use std::fmt;
use std::net::IpAddr;
use std::path::PathBuf;
use std::time::Duration;

use url::Url;

/// Default pool size when neither `DATABASE_URL` nor the environment says otherwise.
pub const DEFAULT_POOL_SIZE: usize = 10;
/// Default number of extra connections the pool may open under load.
pub const DEFAULT_MAX_OVERFLOW: usize = 20;

/// Passwords that must never guard a production database.
const WELL_KNOWN_PASSWORDS: &[&str] = &[
    "postgres",
    "password",
    "passw0rd",
    "changeme",
    "change-me",
    "change_me",
    "changethis",
    "admin",
    "secret",
    "root",
    "strata",
    "filaops",
    "123456",
    "12345678",
    "example",
    "default",
];

/// The deployment environment. Production turns on the strict start-up checks and HSTS.
#[derive(Debug, Clone, Copy, PartialEq, Eq, strum::IntoStaticStr)]
#[strum(serialize_all = "lowercase")]
pub enum Environment {
    /// Local development and tests (the default).
    Development,
    /// A real deployment.
    Production,
}

impl Environment {
    /// The name shown in settings, scans and error reports: `development` or `production`.
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

/// How log lines are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogFormat {
    /// One JSON object per line (spec 1.3).
    Json,
    /// Human-readable lines.
    Text,
}

/// The minimum level that is logged (spec 1.1 names).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogLevel {
    /// Everything useful for debugging.
    Debug,
    /// Normal operation.
    Info,
    /// Something is off but the service copes.
    Warning,
    /// Something failed.
    Error,
}

impl LogLevel {
    /// The `tracing` level filter directive for this level.
    pub fn directive(self) -> &'static str {
        match self {
            LogLevel::Debug => "debug",
            LogLevel::Info => "info",
            LogLevel::Warning => "warn",
            LogLevel::Error => "error",
        }
    }
}

/// How the session is carried after login (CONTRACT 1.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AuthMode {
    /// httpOnly cookies (the default).
    Cookie,
    /// Bearer tokens in the response body.
    Header,
}

/// A secret value: shown as `***` in `Debug` and in the printed configuration.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    /// Wraps a secret string.
    pub fn new(value: impl Into<String>) -> Self {
        Secret(value.into())
    }

    /// The secret itself; call sites are few and easy to audit.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("***")
    }
}

/// Where the database is and how many connections to keep.
#[derive(Debug, Clone)]
pub struct DatabaseConfig {
    /// Connection URL without the pool-tuning query parameters.
    pub url: Secret,
    /// Connections kept open.
    pub pool_size: usize,
    /// Extra connections allowed under load.
    pub max_overflow: usize,
}

impl DatabaseConfig {
    /// The pool's maximum number of connections.
    pub fn max_connections(&self) -> usize {
        self.pool_size + self.max_overflow
    }

    /// The URL with its password replaced by `***`, for logs and `strata config`.
    pub fn redacted_url(&self) -> String {
        redact_url(self.url.expose())
    }
}

/// Outgoing mail (spec 1.1 SMTP_*). Mail counts as configured when user and password are set.
#[derive(Debug, Clone, Default)]
pub struct SmtpConfig {
    /// Mail server host.
    pub host: Option<String>,
    /// Mail server port.
    pub port: Option<u16>,
    /// Mail server user.
    pub user: Option<String>,
    /// Mail server password.
    pub password: Option<Secret>,
    /// Sender address.
    pub from_email: Option<String>,
    /// Sender display name.
    pub from_name: Option<String>,
    /// Who approves password resets.
    pub admin_approval_email: Option<String>,
    /// `SMTP_SECURITY` as given (`None`: derived from the port and host, see
    /// [`SmtpConfig::security`]).
    pub security: Option<SmtpSecurity>,
}

/// How the SMTP connection is protected (`SMTP_SECURITY`). There is no opportunistic mode:
/// a server (or an attacker in the path) that does not offer STARTTLS must not be able to
/// make Strata send credentials and reset links in the clear.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SmtpSecurity {
    /// Plain connection upgraded with STARTTLS; the upgrade is required (port 587).
    StartTls,
    /// TLS from the first byte (port 465).
    Tls,
    /// No encryption: only for a loopback relay or test server, or when explicitly chosen
    /// outside production.
    None,
}

impl SmtpSecurity {
    /// The `SMTP_SECURITY` spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            SmtpSecurity::StartTls => "starttls",
            SmtpSecurity::Tls => "tls",
            SmtpSecurity::None => "none",
        }
    }
}

/// True for `localhost` and loopback addresses: the only hosts mail may go to in the clear
/// without an explicit `SMTP_SECURITY=none`.
pub fn is_loopback_host(host: &str) -> bool {
    let host = host.trim_start_matches('[').trim_end_matches(']');
    host.eq_ignore_ascii_case("localhost")
        || host
            .parse::<IpAddr>()
            .map(|ip| ip.is_loopback())
            .unwrap_or(false)
}

impl SmtpConfig {
    /// Spec 3.2: mail is configured exactly when `SMTP_USER` and `SMTP_PASSWORD` are both set.
    pub fn is_configured(&self) -> bool {
        self.user.is_some() && self.password.is_some()
    }

    /// The mail server host (`localhost` when not set).
    pub fn host_or_default(&self) -> &str {
        self.host.as_deref().unwrap_or("localhost")
    }

    /// The effective protection: `SMTP_SECURITY` when set; otherwise implicit TLS on port
    /// 465, plain for a loopback host (a local relay or test server), and required STARTTLS
    /// everywhere else. Production refuses `none` for a non-loopback host at start-up.
    pub fn security(&self) -> SmtpSecurity {
        match self.security {
            Some(chosen) => chosen,
            None if self.port == Some(465) => SmtpSecurity::Tls,
            None if is_loopback_host(self.host_or_default()) => SmtpSecurity::None,
            None => SmtpSecurity::StartTls,
        }
    }
}

/// The whole configuration of one process.
#[derive(Debug, Clone)]
pub struct Config {
    /// development or production.
    pub environment: Environment,
    /// Database connection and pool.
    pub database: DatabaseConfig,
    /// 32-byte token signing key.
    pub secret_key: Secret,
    /// True when `SECRET_KEY` was absent and a random per-process key is used (development).
    pub secret_key_generated: bool,
    /// Exact origins allowed by CORS (`*` only in development).
    pub allowed_origins: Vec<String>,
    /// Base URL of the front end, used in e-mail links.
    pub frontend_url: String,
    /// Access-token lifetime.
    pub access_token_ttl: Duration,
    /// Minimum log level.
    pub log_level: LogLevel,
    /// Log line format.
    pub log_format: LogFormat,
    /// Edition tier; `community` for the open-source edition.
    pub tier: String,
    /// Error-tracking service DSN (accepted, reserved).
    pub errortrack_dsn: Option<Secret>,
    /// Key-value store URL (`redis://`): background jobs are delivered through it
    /// (`jobs::kv`); PostgreSQL stays their outbox and record.
    pub kvstore_url: Option<Secret>,
    /// The Anthropic API key of the AI assistant (`ANTHROPIC_API_KEY`); kept out of the
    /// database, like every other secret.
    pub anthropic_api_key: Option<Secret>,
    /// Cookie or header sessions.
    pub auth_mode: AuthMode,
    /// Outgoing mail.
    pub smtp: SmtpConfig,
    /// Address the server binds to.
    pub host: IpAddr,
    /// Port the server listens on.
    pub port: u16,
    /// Proxies whose `X-Forwarded-For` is believed.
    pub trusted_proxies: Vec<IpNet>,
    /// Where uploaded files are stored.
    pub uploads_dir: PathBuf,
    /// Where the built single-page app is (served when it exists).
    pub spa_dir: PathBuf,
    /// Longest time one request may take.
    pub request_timeout: Duration,
    /// Largest accepted request body (uploads have their own limit).
    pub max_body_bytes: usize,
    /// Largest accepted uploaded file.
    pub max_upload_bytes: usize,
    /// Memory for answers to signed-in reads, in MiB (`RESPONSE_CACHE_MB`; 0 turns the cache
    /// off). See [`crate::platform::http::answer_cache`].
    pub response_cache_mb: u64,
    /// `PASSWORD_RESET_AUTO_APPROVE`: without mail, a reset request is approved at once and
    /// its link is in the answer. Always so in development; in production only when set to
    /// `true` (the security scan flags it as critical), otherwise requests wait for an admin.
    pub password_reset_auto_approve: bool,
}

/// One problem with one variable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigProblem {
    /// The environment variable at fault.
    pub variable: &'static str,
    /// What is wrong and what is accepted.
    pub message: String,
}

/// Every problem found while reading the configuration.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct ConfigError(pub Vec<ConfigProblem>);

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "invalid configuration:")?;
        for p in &self.0 {
            writeln!(f, "  {}: {}", p.variable, p.message)?;
        }
        Ok(())
    }
}

impl ConfigError {
    /// True when one of the problems concerns `variable`.
    pub fn mentions(&self, variable: &str) -> bool {
        self.0.iter().any(|p| p.variable == variable)
    }
}

/// An IP network (address plus prefix length) for the trusted-proxy list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IpNet {
    addr: IpAddr,
    prefix: u8,
}

impl IpNet {
    /// Parses `10.0.0.0/8`, `::1/128` or a bare address (a single host).
    pub fn parse(s: &str) -> Option<IpNet> {
        let (addr, prefix) = match s.split_once('/') {
            Some((a, p)) => (a.parse::<IpAddr>().ok()?, Some(p.parse::<u8>().ok()?)),
            None => (s.parse::<IpAddr>().ok()?, None),
        };
        let max = if addr.is_ipv4() { 32 } else { 128 };
        let prefix = prefix.unwrap_or(max);
        (prefix <= max).then_some(IpNet { addr, prefix })
    }

    /// True when `ip` lies inside this network.
    pub fn contains(&self, ip: IpAddr) -> bool {
        let ip = canonical(ip);
        match (self.addr, ip) {
            (IpAddr::V4(net), IpAddr::V4(ip)) => {
                let mask = u32::MAX
                    .checked_shl(32 - u32::from(self.prefix))
                    .unwrap_or(0);
                u32::from(net) & mask == u32::from(ip) & mask
            }
            (IpAddr::V6(net), IpAddr::V6(ip)) => {
                let mask = u128::MAX
                    .checked_shl(128 - u32::from(self.prefix))
                    .unwrap_or(0);
                u128::from(net) & mask == u128::from(ip) & mask
            }
            _ => false,
        }
    }
}

impl fmt::Display for IpNet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.addr, self.prefix)
    }
}

/// IPv4-mapped IPv6 addresses (`::ffff:1.2.3.4`) compare as their IPv4 form.
pub fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map(IpAddr::V4).unwrap_or(ip),
        v4 => v4,
    }
}

/// Replaces the password of a URL with `***`.
pub fn redact_url(raw: &str) -> String {
    match Url::parse(raw) {
        Ok(mut url) => {
            if url.password().is_some() {
                let _ = url.set_password(Some("***"));
            }
            url.to_string()
        }
        Err(_) => "<unparseable url>".to_string(),
    }
}

impl Config {
    /// Reads the process environment.
    pub fn from_env() -> Result<Config, ConfigError> {
        Config::from_vars(std::env::vars())
    }

    /// Reads configuration from name/value pairs (the environment, or a test's map).
    pub fn from_vars<I, K, V>(vars: I) -> Result<Config, ConfigError>
    where
        I: IntoIterator<Item = (K, V)>,
        K: Into<String>,
        V: Into<String>,
    {
        let env: HashMap<String, String> = vars
            .into_iter()
            .map(|(k, v)| (k.into(), v.into()))
            .collect();
        let mut reader = Reader {
            env: &env,
            problems: Vec::new(),
        };
        let config = reader.read();
        if reader.problems.is_empty() {
            Ok(config)
        } else {
            Err(ConfigError(reader.problems))
        }
    }

    /// The effective configuration as `NAME=value` lines with secrets redacted.
    pub fn describe(&self) -> Vec<(&'static str, String)> {
        fn opt(v: &Option<String>) -> String {
            v.clone().unwrap_or_default()
        }
        fn secret(v: &Option<Secret>) -> String {
            if v.is_some() {
                "***".into()
            } else {
                String::new()
            }
        }
        vec![
            ("ENVIRONMENT", self.environment.as_str().into()),
            ("DATABASE_URL", self.database.redacted_url()),
            ("DB_POOL_SIZE", self.database.pool_size.to_string()),
            ("DB_MAX_OVERFLOW", self.database.max_overflow.to_string()),
            (
                "SECRET_KEY",
                if self.secret_key_generated {
                    "*** (random per process)".into()
                } else {
                    "***".into()
                },
            ),
            ("ALLOWED_ORIGINS", self.allowed_origins.join(",")),
            ("FRONTEND_URL", self.frontend_url.clone()),
            (
                "ACCESS_TOKEN_EXPIRE_MINUTES",
                (self.access_token_ttl.as_secs() / 60).to_string(),
            ),
            ("LOG_LEVEL", format!("{:?}", self.log_level).to_uppercase()),
            (
                "LOG_FORMAT",
                match self.log_format {
                    LogFormat::Json => "json".into(),
                    LogFormat::Text => "text".into(),
                },
            ),
            ("TIER", self.tier.clone()),
            ("ERRORTRACK_DSN", secret(&self.errortrack_dsn)),
            ("KVSTORE_URL", secret(&self.kvstore_url)),
            ("ANTHROPIC_API_KEY", secret(&self.anthropic_api_key)),
            (
                "AUTH_MODE",
                match self.auth_mode {
                    AuthMode::Cookie => "cookie".into(),
                    AuthMode::Header => "header".into(),
                },
            ),
            ("SMTP_HOST", opt(&self.smtp.host)),
            (
                "SMTP_PORT",
                self.smtp.port.map(|p| p.to_string()).unwrap_or_default(),
            ),
            ("SMTP_USER", opt(&self.smtp.user)),
            ("SMTP_PASSWORD", secret(&self.smtp.password)),
            ("SMTP_FROM_EMAIL", opt(&self.smtp.from_email)),
            ("SMTP_FROM_NAME", opt(&self.smtp.from_name)),
            ("ADMIN_APPROVAL_EMAIL", opt(&self.smtp.admin_approval_email)),
            ("SMTP_SECURITY", self.smtp.security().as_str().to_string()),
            ("HOST", self.host.to_string()),
            ("PORT", self.port.to_string()),
            (
                "TRUSTED_PROXIES",
                self.trusted_proxies
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(","),
            ),
            ("UPLOADS_DIR", self.uploads_dir.display().to_string()),
            ("SPA_DIR", self.spa_dir.display().to_string()),
            (
                "REQUEST_TIMEOUT_SECONDS",
                self.request_timeout.as_secs().to_string(),
            ),
            ("MAX_BODY_BYTES", self.max_body_bytes.to_string()),
            ("MAX_UPLOAD_BYTES", self.max_upload_bytes.to_string()),
            ("RESPONSE_CACHE_MB", self.response_cache_mb.to_string()),
        ]
    }

    /// True in production.
    pub fn is_production(&self) -> bool {
        self.environment == Environment::Production
    }
}

/// The listening and file-system variables, as [`Reader::server`] reads them.
struct ServerVars {
    host: IpAddr,
    port: u16,
    trusted_proxies: Vec<IpNet>,
    uploads_dir: PathBuf,
    spa_dir: PathBuf,
}

/// The request and cache limits, as [`Reader::limits`] reads them.
struct LimitVars {
    request_timeout: Duration,
    max_body_bytes: usize,
    max_upload_bytes: usize,
    response_cache_mb: u64,
}

struct Reader<'a> {
    env: &'a HashMap<String, String>,
    problems: Vec<ConfigProblem>,
}

impl Reader<'_> {
    /// A set, non-blank value (surrounding whitespace trimmed).
    fn get(&self, name: &str) -> Option<String> {
        self.env
            .get(name)
            .map(|v| v.trim().to_string())
            .filter(|v| !v.is_empty())
    }

    fn problem(&mut self, variable: &'static str, message: impl Into<String>) {
        self.problems.push(ConfigProblem {
            variable,
            message: message.into(),
        });
    }

    fn number<T: std::str::FromStr + Copy + PartialOrd + fmt::Display>(
        &mut self,
        name: &'static str,
        default: T,
        min: T,
        max: T,
    ) -> T {
        match self.get(name) {
            None => default,
            Some(raw) => match raw.parse::<T>() {
                Ok(v) if v >= min && v <= max => v,
                _ => {
                    self.problem(
                        name,
                        format!("`{raw}` is not a whole number between {min} and {max}"),
                    );
                    default
                }
            },
        }
    }

    fn choice<T: Copy>(
        &mut self,
        name: &'static str,
        default: T,
        options: &[(&str, T)],
        allowed: &str,
    ) -> T {
        match self.get(name) {
            None => default,
            Some(raw) => {
                let lower = raw.to_ascii_lowercase();
                match options.iter().find(|(k, _)| *k == lower) {
                    Some((_, v)) => *v,
                    None => {
                        self.problem(
                            name,
                            format!("`{raw}` is not allowed; use one of {allowed}"),
                        );
                        default
                    }
                }
            }
        }
    }

    fn read(&mut self) -> Config {
        let environment = self.environment();
        let production = environment == Environment::Production;

        let database = self.database(production);
        let (secret_key, secret_key_generated) = self.secret_key(production);
        let allowed_origins = self.origins(production);

        let frontend_url = self.frontend_url();
        let access_minutes: u64 = self.number("ACCESS_TOKEN_EXPIRE_MINUTES", 30, 1, 24 * 60);
        let (log_level, log_format) = self.logging();
        let auth_mode = self.auth_mode();
        let smtp = self.smtp(production);
        let errortrack_dsn = self.errortrack_dsn();
        let kvstore_url = self.kvstore_url();
        let server = self.server();
        let limits = self.limits();
        let auto_approve_set = self.choice(
            "PASSWORD_RESET_AUTO_APPROVE",
            false,
            &[("true", true), ("false", false)],
            "true, false",
        );

        Config {
            environment,
            database,
            secret_key,
            secret_key_generated,
            allowed_origins,
            frontend_url,
            access_token_ttl: Duration::from_secs(access_minutes * 60),
            log_level,
            log_format,
            tier: self.get("TIER").unwrap_or_else(|| "community".into()),
            errortrack_dsn,
            kvstore_url,
            anthropic_api_key: self.get("ANTHROPIC_API_KEY").map(Secret::new),
            auth_mode,
            smtp,
            host: server.host,
            port: server.port,
            trusted_proxies: server.trusted_proxies,
            uploads_dir: server.uploads_dir,
            spa_dir: server.spa_dir,
            request_timeout: limits.request_timeout,
            max_body_bytes: limits.max_body_bytes,
            max_upload_bytes: limits.max_upload_bytes,
            response_cache_mb: limits.response_cache_mb,
            password_reset_auto_approve: !production || auto_approve_set,
        }
    }

    /// `ENVIRONMENT` (development unless it says production).
    fn environment(&mut self) -> Environment {
        self.choice(
            "ENVIRONMENT",
            Environment::Development,
            &[
                ("development", Environment::Development),
                ("dev", Environment::Development),
                ("production", Environment::Production),
                ("prod", Environment::Production),
            ],
            "development, production",
        )
    }

    /// `FRONTEND_URL`, which must be a URL, without its trailing slashes.
    fn frontend_url(&mut self) -> String {
        let frontend_url = self
            .get("FRONTEND_URL")
            .unwrap_or_else(|| "http://localhost".into());
        if Url::parse(&frontend_url).is_err() {
            self.problem("FRONTEND_URL", format!("`{frontend_url}` is not a URL"));
        }
        frontend_url.trim_end_matches('/').to_string()
    }

    /// `LOG_LEVEL` and `LOG_FORMAT`.
    fn logging(&mut self) -> (LogLevel, LogFormat) {
        let log_level = self.choice(
            "LOG_LEVEL",
            LogLevel::Info,
            &[
                ("debug", LogLevel::Debug),
                ("info", LogLevel::Info),
                ("warning", LogLevel::Warning),
                ("warn", LogLevel::Warning),
                ("error", LogLevel::Error),
            ],
            "DEBUG, INFO, WARNING, ERROR",
        );
        let log_format = self.choice(
            "LOG_FORMAT",
            LogFormat::Json,
            &[("json", LogFormat::Json), ("text", LogFormat::Text)],
            "json, text",
        );
        (log_level, log_format)
    }

    /// `AUTH_MODE` (cookie unless it says header or bearer).
    fn auth_mode(&mut self) -> AuthMode {
        self.choice(
            "AUTH_MODE",
            AuthMode::Cookie,
            &[
                ("cookie", AuthMode::Cookie),
                ("header", AuthMode::Header),
                ("bearer", AuthMode::Header),
            ],
            "cookie, header",
        )
    }

    /// The `SMTP_*` variables and `ADMIN_APPROVAL_EMAIL`; production refuses plain SMTP
    /// except to a loopback host.
    fn smtp(&mut self, production: bool) -> SmtpConfig {
        let smtp = SmtpConfig {
            host: self.get("SMTP_HOST"),
            port: self
                .get("SMTP_PORT")
                .and_then(|raw| match raw.parse::<u16>() {
                    Ok(p) if p > 0 => Some(p),
                    _ => {
                        self.problem(
                            "SMTP_PORT",
                            format!("`{raw}` is not a port number (1-65535)"),
                        );
                        None
                    }
                }),
            user: self.get("SMTP_USER"),
            password: self.get("SMTP_PASSWORD").map(Secret::new),
            from_email: self.get("SMTP_FROM_EMAIL"),
            from_name: self.get("SMTP_FROM_NAME"),
            admin_approval_email: self.get("ADMIN_APPROVAL_EMAIL"),
            security: self.get("SMTP_SECURITY").map(|_| {
                self.choice(
                    "SMTP_SECURITY",
                    SmtpSecurity::StartTls,
                    &[
                        ("starttls", SmtpSecurity::StartTls),
                        ("tls", SmtpSecurity::Tls),
                        ("none", SmtpSecurity::None),
                    ],
                    "starttls, tls, none",
                )
            }),
        };
        if production
            && smtp.is_configured()
            && smtp.security() == SmtpSecurity::None
            && !is_loopback_host(smtp.host_or_default())
        {
            self.problem(
                "SMTP_SECURITY",
                "`none` would send mail credentials and reset links in the clear; production allows it only for a loopback host (use starttls or tls)",
            );
        }
        smtp
    }

    /// `ERRORTRACK_DSN`, which must be a Sentry-protocol DSN.
    fn errortrack_dsn(&mut self) -> Option<Secret> {
        let errortrack_dsn = self.get("ERRORTRACK_DSN");
        if let Some(dsn) = &errortrack_dsn
            && dsn.parse::<sentry::types::Dsn>().is_err()
        {
            self.problem(
                "ERRORTRACK_DSN",
                "is not a Sentry-protocol DSN (https://KEY@HOST/PROJECT_ID)",
            );
        }
        errortrack_dsn.map(Secret::new)
    }

    /// `KVSTORE_URL`, checked as the job queue would use it.
    fn kvstore_url(&mut self) -> Option<Secret> {
        let kvstore_url = self.get("KVSTORE_URL");
        if let Some(url) = &kvstore_url
            && let Err(message) = crate::platform::jobs::kv::check_url(url)
        {
            self.problem("KVSTORE_URL", message);
        }
        kvstore_url.map(Secret::new)
    }

    /// `HOST`, `PORT`, `TRUSTED_PROXIES`, `UPLOADS_DIR` and `SPA_DIR`.
    fn server(&mut self) -> ServerVars {
        let host = match self.get("HOST") {
            None => IpAddr::from([0, 0, 0, 0]),
            Some(raw) => raw.parse().unwrap_or_else(|_| {
                self.problem("HOST", format!("`{raw}` is not an IP address"));
                IpAddr::from([0, 0, 0, 0])
            }),
        };
        let port: u16 = self.number("PORT", 8000, 1, u16::MAX);
        let trusted_proxies = self
            .get("TRUSTED_PROXIES")
            .map(|raw| {
                raw.split(',')
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .filter_map(|s| {
                        let net = IpNet::parse(s);
                        if net.is_none() {
                            self.problem(
                                "TRUSTED_PROXIES",
                                format!("`{s}` is not an IP address or CIDR network"),
                            );
                        }
                        net
                    })
                    .collect()
            })
            .unwrap_or_default();
        let uploads_dir = self
            .get("UPLOADS_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from(".data/uploads"));
        let spa_dir = self
            .get("SPA_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from("frontend/dist"));
        ServerVars {
            host,
            port,
            trusted_proxies,
            uploads_dir,
            spa_dir,
        }
    }

    /// `REQUEST_TIMEOUT_SECONDS`, `MAX_BODY_BYTES`, `MAX_UPLOAD_BYTES` and
    /// `RESPONSE_CACHE_MB`.
    fn limits(&mut self) -> LimitVars {
        let timeout_secs: u64 = self.number("REQUEST_TIMEOUT_SECONDS", 30, 1, 3600);
        let max_body_bytes: usize = self.number("MAX_BODY_BYTES", 2 * 1024 * 1024, 1024, 1 << 30);
        let max_upload_bytes: usize =
            self.number("MAX_UPLOAD_BYTES", 50 * 1024 * 1024, 1024, 1 << 32);
        let response_cache_mb: u64 = self.number("RESPONSE_CACHE_MB", 64, 0, 65536);
        LimitVars {
            request_timeout: Duration::from_secs(timeout_secs),
            max_body_bytes,
            max_upload_bytes,
            response_cache_mb,
        }
    }

    fn database(&mut self, production: bool) -> DatabaseConfig {
        let mut pool_size = DEFAULT_POOL_SIZE;
        let mut max_overflow = DEFAULT_MAX_OVERFLOW;
        let url = if let Some(raw) = self.get("DATABASE_URL") {
            match Url::parse(&raw) {
                Ok(mut url) if matches!(url.scheme(), "postgres" | "postgresql") => {
                    // Pool tuning rides in the query string (spec 1.1); the driver must not see it.
                    let mut kept = Vec::new();
                    for (k, v) in url.query_pairs() {
                        match k.as_ref() {
                            "pool_size" => match v.parse::<usize>() {
                                Ok(n) if (1..=1000).contains(&n) => pool_size = n,
                                _ => self.problem(
                                    "DATABASE_URL",
                                    format!("pool_size `{v}` is not a whole number between 1 and 1000"),
                                ),
                            },
                            "max_overflow" => match v.parse::<usize>() {
                                Ok(n) if n <= 1000 => max_overflow = n,
                                _ => self.problem(
                                    "DATABASE_URL",
                                    format!("max_overflow `{v}` is not a whole number between 0 and 1000"),
                                ),
                            },
                            _ => kept.push((k.into_owned(), v.into_owned())),
                        }
                    }
                    if kept.is_empty() {
                        url.set_query(None);
                    } else {
                        url.query_pairs_mut().clear().extend_pairs(kept);
                    }
                    if production {
                        let password = url.password().map(percent_decode);
                        self.check_db_password("DATABASE_URL", password.as_deref());
                    }
                    url.to_string()
                }
                Ok(_) => {
                    self.problem(
                        "DATABASE_URL",
                        "must start with postgres:// or postgresql://",
                    );
                    String::new()
                }
                Err(e) => {
                    self.problem("DATABASE_URL", format!("is not a valid URL ({e})"));
                    String::new()
                }
            }
        } else {
            let host = self.get("DB_HOST").unwrap_or_else(|| "localhost".into());
            let port: u16 = self.number("DB_PORT", 5432, 1, u16::MAX);
            let name = self.get("DB_NAME").unwrap_or_else(|| "strata".into());
            let user = self.get("DB_USER").unwrap_or_else(|| "postgres".into());
            let password = self.get("DB_PASSWORD");
            if production {
                self.check_db_password("DB_PASSWORD", password.as_deref());
            }
            let mut url = Url::parse("postgres://localhost/").unwrap_or_else(|_| unreachable_url());
            if url.set_host(Some(&host)).is_err() {
                self.problem("DB_HOST", format!("`{host}` is not a host name"));
            }
            let _ = url.set_port(Some(port));
            let _ = url.set_username(&user);
            if let Some(p) = &password {
                let _ = url.set_password(Some(p));
            }
            url.set_path(&name);
            url.to_string()
        };
        DatabaseConfig {
            url: Secret::new(url),
            pool_size,
            max_overflow,
        }
    }

    fn check_db_password(&mut self, variable: &'static str, password: Option<&str>) {
        match password {
            None | Some("") => self.problem(
                variable,
                "the database password is empty; production needs a strong one",
            ),
            Some(p) if WELL_KNOWN_PASSWORDS.contains(&p.to_ascii_lowercase().as_str()) => self
                .problem(
                    variable,
                    "the database password is a well-known default; change it for production",
                ),
            Some(_) => {}
        }
    }

    fn secret_key(&mut self, production: bool) -> (Secret, bool) {
        match self.get("SECRET_KEY") {
            Some(raw) if raw.len() == 64 && raw.chars().all(|c| c.is_ascii_hexdigit()) => {
                (Secret::new(raw.to_ascii_lowercase()), false)
            }
            Some(_) => {
                self.problem(
                    "SECRET_KEY",
                    "must be 64 hexadecimal characters (32 random bytes; generate one with `openssl rand -hex 32`)",
                );
                (random_key(), true)
            }
            None if production => {
                self.problem(
                    "SECRET_KEY",
                    "is required in production: 64 hexadecimal characters (`openssl rand -hex 32`)",
                );
                (random_key(), true)
            }
            None => (random_key(), true),
        }
    }

    fn origins(&mut self, production: bool) -> Vec<String> {
        let raw = self
            .get("ALLOWED_ORIGINS")
            .unwrap_or_else(|| "http://localhost".into());
        let mut origins = Vec::new();
        for origin in raw.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            if origin == "*" {
                if production {
                    self.problem(
                        "ALLOWED_ORIGINS",
                        "a wildcard origin is refused in production; list the front end's exact origins",
                    );
                }
                origins.push("*".to_string());
                continue;
            }
            match Url::parse(origin) {
                Ok(url)
                    if matches!(url.scheme(), "http" | "https")
                        && url.host().is_some()
                        && url.path() == "/"
                        && !origin.ends_with('/') =>
                {
                    origins.push(origin.to_string());
                }
                _ => self.problem(
                    "ALLOWED_ORIGINS",
                    format!("`{origin}` is not an origin like https://erp.example.com (scheme, host and optional port, no path)"),
                ),
            }
        }
        origins
    }
}

fn percent_decode(s: &str) -> String {
    percent_encoding::percent_decode_str(s)
        .decode_utf8_lossy()
        .into_owned()
}

fn unreachable_url() -> Url {
    // `postgres://localhost/` always parses; this keeps the code free of `unwrap`.
    Url::parse("postgres://localhost/").unwrap_or_else(|_| std::process::abort())
}

/// Bytes of a `SECRET_KEY` (written as twice as many hexadecimal characters).
pub const SECRET_KEY_BYTES: usize = 32;

/// A fresh `SECRET_KEY` value: `SECRET_KEY_BYTES` from the operating system's CSPRNG, hex.
pub fn random_key_hex() -> String {
    use rand::RngCore;
    let mut bytes = [0u8; SECRET_KEY_BYTES];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    hex::encode(bytes)
}

fn random_key() -> Secret {
    Secret::new(random_key_hex())
}

#[cfg(test)]
mod tests;
