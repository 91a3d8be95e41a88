//! Unit tests of `config.rs`.

use super::*;

const KEY: &str = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

fn parse(vars: &[(&str, &str)]) -> Result<Config, ConfigError> {
    Config::from_vars(vars.iter().map(|(k, v)| (k.to_string(), v.to_string())))
}

#[test]
fn defaults_follow_the_spec() {
    let c = parse(&[]).expect("defaults are valid");
    assert_eq!(c.environment, Environment::Development);
    assert_eq!(
        c.database.url.expose(),
        "postgres://postgres@localhost:5432/strata"
    );
    assert_eq!(c.database.pool_size, DEFAULT_POOL_SIZE);
    assert_eq!(c.allowed_origins, vec!["http://localhost"]);
    assert_eq!(c.frontend_url, "http://localhost");
    assert_eq!(c.access_token_ttl, Duration::from_secs(1800));
    assert_eq!(c.log_level, LogLevel::Info);
    assert_eq!(c.log_format, LogFormat::Json);
    assert_eq!(c.tier, "community");
    assert_eq!(c.auth_mode, AuthMode::Cookie);
    assert_eq!(c.port, 8000);
    assert!(c.secret_key_generated, "development gets a random key");
    assert_eq!(c.secret_key.expose().len(), 64);
}

#[test]
fn database_url_overrides_db_vars_and_pool_params_are_removed() {
    let c = parse(&[
        ("DB_HOST", "ignored"),
        (
            "DATABASE_URL",
            "postgresql://u:p%40ss@db:6543/erp?pool_size=7&max_overflow=3&sslmode=disable",
        ),
    ])
    .expect("valid");
    assert_eq!(c.database.pool_size, 7);
    assert_eq!(c.database.max_overflow, 3);
    assert_eq!(c.database.max_connections(), 10);
    assert_eq!(
        c.database.url.expose(),
        "postgresql://u:p%40ss@db:6543/erp?sslmode=disable"
    );
    assert_eq!(
        c.database.redacted_url(),
        "postgresql://u:***@db:6543/erp?sslmode=disable"
    );
}

#[test]
fn db_vars_build_the_url() {
    let c = parse(&[
        ("DB_HOST", "db"),
        ("DB_PORT", "5433"),
        ("DB_NAME", "erp"),
        ("DB_USER", "app"),
        ("DB_PASSWORD", "s3cr3t/x"),
    ])
    .expect("valid");
    assert_eq!(
        c.database.url.expose(),
        "postgres://app:s3cr3t%2Fx@db:5433/erp"
    );
}

#[test]
fn production_refuses_weak_settings_and_names_each_variable() {
    let err = parse(&[
        ("ENVIRONMENT", "production"),
        ("SECRET_KEY", "not-hex"),
        ("DB_PASSWORD", "postgres"),
        ("ALLOWED_ORIGINS", "*"),
    ])
    .expect_err("must refuse");
    assert!(err.mentions("SECRET_KEY"));
    assert!(err.mentions("DB_PASSWORD"));
    assert!(err.mentions("ALLOWED_ORIGINS"));

    let err = parse(&[
        ("ENVIRONMENT", "production"),
        ("DB_PASSWORD", "Str0ng-and-long"),
    ])
    .expect_err("missing key");
    assert_eq!(err.0.len(), 1);
    assert!(err.mentions("SECRET_KEY"));

    let err = parse(&[
        ("ENVIRONMENT", "production"),
        ("SECRET_KEY", KEY),
        ("DATABASE_URL", "postgres://app@db/erp"),
    ])
    .expect_err("empty password in URL");
    assert!(err.mentions("DATABASE_URL"));

    let ok = parse(&[
        ("ENVIRONMENT", "production"),
        ("SECRET_KEY", KEY),
        ("DB_PASSWORD", "Str0ng-and-long"),
        (
            "ALLOWED_ORIGINS",
            "https://erp.example.com, https://erp.example.com:8443",
        ),
    ])
    .expect("valid production config");
    assert!(!ok.secret_key_generated);
    assert_eq!(ok.allowed_origins.len(), 2);
}

#[test]
fn malformed_secret_key_is_refused_even_in_development() {
    let err = parse(&[("SECRET_KEY", &KEY[..63])]).expect_err("63 chars");
    assert!(err.mentions("SECRET_KEY"));
}

#[test]
fn bad_values_name_the_variable_and_the_allowed_values() {
    let err = parse(&[
        ("LOG_LEVEL", "LOUD"),
        ("LOG_FORMAT", "xml"),
        ("PORT", "80000"),
        ("ACCESS_TOKEN_EXPIRE_MINUTES", "soon"),
        ("AUTH_MODE", "magic"),
        ("TRUSTED_PROXIES", "10.0.0.0/8, not-an-ip"),
        (
            "ALLOWED_ORIGINS",
            "http://ok.example, ftp://x, http://a.example/path",
        ),
    ])
    .expect_err("all bad");
    let text = err.to_string();
    assert!(
        text.contains("LOG_LEVEL: `LOUD` is not allowed; use one of DEBUG, INFO, WARNING, ERROR")
    );
    assert!(text.contains("LOG_FORMAT: `xml` is not allowed; use one of json, text"));
    assert!(text.contains("PORT: `80000` is not a whole number between 1 and 65535"));
    assert!(err.mentions("ACCESS_TOKEN_EXPIRE_MINUTES"));
    assert!(err.mentions("AUTH_MODE"));
    assert!(err.mentions("TRUSTED_PROXIES"));
    assert_eq!(
        err.0
            .iter()
            .filter(|p| p.variable == "ALLOWED_ORIGINS")
            .count(),
        2
    );
}

#[test]
fn describe_never_shows_secrets() {
    let c = parse(&[
        ("SECRET_KEY", KEY),
        ("DATABASE_URL", "postgres://u:hunter2@db/erp"),
        ("SMTP_USER", "mailer"),
        ("SMTP_PASSWORD", "mail-pass"),
        ("KVSTORE_URL", "redis://:kvpass@kv:6379"),
    ])
    .expect("valid");
    let text = format!("{:?}", c.describe());
    for secret in [KEY, "hunter2", "mail-pass", "kvpass"] {
        assert!(!text.contains(secret), "{secret} leaked");
    }
    assert!(!format!("{c:?}").contains("hunter2"));
}

#[test]
fn smtp_security_never_downgrades_silently() {
    let mail = |extra: &[(&str, &str)]| {
        let mut vars = vec![("SMTP_USER", "mailer"), ("SMTP_PASSWORD", "mail-pass")];
        vars.extend_from_slice(extra);
        parse(&vars).expect("valid").smtp.security()
    };
    // Submission port with credentials: STARTTLS is required, not opportunistic.
    assert_eq!(
        mail(&[("SMTP_HOST", "smtp.example.com"), ("SMTP_PORT", "587")]),
        SmtpSecurity::StartTls
    );
    assert_eq!(
        mail(&[("SMTP_HOST", "smtp.example.com")]),
        SmtpSecurity::StartTls
    );
    assert_eq!(
        mail(&[("SMTP_HOST", "smtp.example.com"), ("SMTP_PORT", "465")]),
        SmtpSecurity::Tls
    );
    // Plain only towards a loopback relay or test server, or when asked for.
    assert_eq!(
        mail(&[("SMTP_HOST", "127.0.0.1"), ("SMTP_PORT", "2525")]),
        SmtpSecurity::None
    );
    assert_eq!(mail(&[("SMTP_HOST", "::1")]), SmtpSecurity::None);
    assert_eq!(
        mail(&[]),
        SmtpSecurity::None,
        "the default host is localhost"
    );
    assert_eq!(
        mail(&[("SMTP_HOST", "mail.internal"), ("SMTP_SECURITY", "NONE")]),
        SmtpSecurity::None
    );
    assert_eq!(
        mail(&[("SMTP_HOST", "127.0.0.1"), ("SMTP_SECURITY", "starttls")]),
        SmtpSecurity::StartTls
    );
    let err = parse(&[("SMTP_SECURITY", "maybe")]).expect_err("unknown mode");
    assert!(
        err.to_string()
            .contains("SMTP_SECURITY: `maybe` is not allowed; use one of starttls, tls, none")
    );
}

#[test]
fn production_refuses_plain_smtp_except_on_loopback() {
    let production = |extra: &[(&str, &str)]| {
        let mut vars = vec![
            ("ENVIRONMENT", "production"),
            ("SECRET_KEY", KEY),
            ("DB_PASSWORD", "Str0ng-and-long"),
            ("ALLOWED_ORIGINS", "https://erp.example.com"),
            ("SMTP_USER", "mailer"),
            ("SMTP_PASSWORD", "mail-pass"),
        ];
        vars.extend_from_slice(extra);
        parse(&vars)
    };
    let err = production(&[("SMTP_HOST", "smtp.example.com"), ("SMTP_SECURITY", "none")])
        .expect_err("plain mail over the network");
    assert_eq!(err.0.len(), 1);
    assert!(err.mentions("SMTP_SECURITY"));
    production(&[("SMTP_HOST", "localhost"), ("SMTP_SECURITY", "none")])
        .expect("a loopback relay may be plain");
    let ok = production(&[("SMTP_HOST", "smtp.example.com"), ("SMTP_PORT", "587")])
        .expect("STARTTLS by default");
    assert_eq!(ok.smtp.security(), SmtpSecurity::StartTls);
}

#[test]
fn ip_networks() {
    let net = IpNet::parse("172.20.0.0/16").expect("cidr");
    assert!(net.contains("172.20.3.4".parse().expect("ip")));
    assert!(!net.contains("172.21.0.1".parse().expect("ip")));
    assert!(net.contains("::ffff:172.20.0.9".parse().expect("ip")));
    let host = IpNet::parse("::1").expect("host");
    assert!(host.contains("::1".parse().expect("ip")));
    assert!(IpNet::parse("10.0.0.0/33").is_none());
    assert!(
        IpNet::parse("0.0.0.0/0")
            .expect("all")
            .contains("8.8.8.8".parse().expect("ip"))
    );
}
