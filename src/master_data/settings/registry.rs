//! The settings as typed keys (`/system/settings`, `/system/settings/{key}`, admins): one
//! view over the settings that already exist, each under a stable key of a closed set.
//!
//! - Company settings (the `company_settings` row) and the AI assistant settings (in
//!   `service_metadata`) are editable: a `PUT` checks the value against the key's type,
//!   then goes through the same rules, transaction and security-audit record as
//!   `PATCH /settings/company` and `PATCH /settings/ai` (the same `settings_changed`
//!   events).
//! - Settings that come from the environment (mail, the secret key, the Anthropic API key,
//!   the environment itself) are read-only: they change in the deployment, not from a
//!   request.
//! - Secrets are never answered: their value is masked (`********` when set, null when
//!   not), with `masked: true` and `is_set` telling whether one is configured.

use async_graphql::{Context, Enum, Json, MaybeUndefined, Object, SimpleObject};
use bigdecimal::BigDecimal;
use diesel_async::AsyncPgConnection;
use serde_json::{Value, json};
use strum::VariantArray;

use crate::master_data::settings::ai::{self, AiProvider, AiSettings, AiSettingsInput};
use crate::master_data::settings::model::CompanySettingsInput;
use crate::master_data::settings::model::{self, SettingsRow};
use crate::master_data::settings::rules;
use crate::platform::auth::viewer::{CurrentUser, current_user};
use crate::platform::auth::{Access, RequestMeta};
use crate::platform::config::Config;
use crate::platform::error::{AppError, AppResult};
use crate::platform::graphql::context;
use crate::platform::graphql::user_error::{UserError, UserErrorCode, invalid};

/// What a masked secret shows when one is set.
pub const MASK: &str = "********";

/// Every setting's key (the closed set `/system/settings/{key}` accepts).
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    Enum,
    strum::EnumString,
    strum::Display,
    strum::AsRefStr,
    strum::VariantArray,
)]
#[graphql(rename_items = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum SettingKey {
    /// Company name.
    CompanyName,
    /// Address, first line.
    #[graphql(name = "company_address_line1")]
    CompanyAddressLine1,
    /// Address, second line.
    #[graphql(name = "company_address_line2")]
    CompanyAddressLine2,
    /// City.
    CompanyCity,
    /// State or region.
    CompanyState,
    /// Postal code.
    CompanyZip,
    /// Country.
    CompanyCountry,
    /// Phone.
    CompanyPhone,
    /// E-mail.
    CompanyEmail,
    /// Website.
    CompanyWebsite,
    /// Whether sales tax is charged.
    TaxEnabled,
    /// Tax rate in percent (0-100).
    TaxRatePercent,
    /// Tax name.
    TaxName,
    /// Tax registration number.
    TaxRegistrationNumber,
    /// Days a new quote stays valid (1-365).
    DefaultQuoteValidityDays,
    /// Terms printed on quotes.
    QuoteTerms,
    /// Footer printed on quotes.
    QuoteFooter,
    /// IANA time zone.
    Timezone,
    /// Opening hour (0-23).
    BusinessHoursStart,
    /// Closing hour (0-23).
    BusinessHoursEnd,
    /// Working days a week (1-7).
    BusinessDaysPerWeek,
    /// Working days, `0` (Monday) to `6` (Sunday), comma separated.
    BusinessWorkDays,
    /// Whether stock may go below zero.
    AllowNegativeInventory,
    /// How much quality management the company runs (`off`, `basic`, `full`).
    QualityMode,
    /// What the inspection gate does in `full` mode (`off`, `warn`, `block`).
    QualityGateAction,
    /// Whether the AI assistant is on.
    AiEnabled,
    /// The AI provider.
    AiProvider,
    /// The AI model name.
    AiModel,
    /// The Ollama server's base URL.
    AiOllamaUrl,
    /// The Anthropic API key (environment, secret).
    AiApiKey,
    /// The mail server host (environment).
    SmtpHost,
    /// The mail server port (environment).
    SmtpPort,
    /// The mail server user (environment).
    SmtpUser,
    /// The mail server password (environment, secret).
    SmtpPassword,
    /// The sender address (environment).
    SmtpFromEmail,
    /// How the mail connection is protected (environment).
    SmtpSecurity,
    /// The token signing key (environment, secret).
    SecretKey,
    /// `development` or `production` (environment).
    Environment,
    /// The front end's base URL (environment).
    FrontendUrl,
}

/// The group a setting belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[graphql(rename_items = "snake_case")]
pub enum SettingSection {
    /// Company details, tax, quotes, working hours, stock (`/settings/company`).
    Company,
    /// The AI assistant (`/settings/ai`).
    Ai,
    /// Outgoing mail (environment).
    Mail,
    /// Deployment security (environment).
    Security,
}

/// The type of a setting's value (what a `PUT` accepts).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[graphql(rename_items = "snake_case")]
pub enum SettingType {
    /// One line of text (at most 255 characters).
    Text,
    /// Long text (at most 10,000 characters).
    LongText,
    /// An e-mail address.
    Email,
    /// An `http(s)` URL.
    Url,
    /// `true` or `false`.
    Boolean,
    /// A whole number.
    Integer,
    /// A decimal number (a JSON number or a numeric string).
    Decimal,
    /// An IANA time zone name.
    TimeZone,
    /// A comma-separated list of days, `0` (Monday) to `6` (Sunday).
    WorkDays,
    /// One of `options`.
    Choice,
    /// A secret: never shown.
    Secret,
}

/// Where a setting's value lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[graphql(rename_items = "snake_case")]
pub enum SettingSource {
    /// In the database; admins change it here.
    Database,
    /// In the server's environment; read-only here.
    Environment,
}

/// What is fixed about a key.
#[derive(Debug, Clone, Copy)]
pub struct KeySpec {
    /// Its group.
    pub section: SettingSection,
    /// Its value's type.
    pub value_type: SettingType,
    /// Whether it can be cleared (null).
    pub nullable: bool,
    /// The environment variable it comes from, for read-only keys.
    pub env_var: Option<&'static str>,
    /// One line for people.
    pub description: &'static str,
}

const fn db(
    section: SettingSection,
    value_type: SettingType,
    nullable: bool,
    description: &'static str,
) -> KeySpec {
    KeySpec {
        section,
        value_type,
        nullable,
        env_var: None,
        description,
    }
}

const fn env(
    section: SettingSection,
    value_type: SettingType,
    var: &'static str,
    description: &'static str,
) -> KeySpec {
    KeySpec {
        section,
        value_type,
        nullable: true,
        env_var: Some(var),
        description,
    }
}

impl SettingKey {
    /// The key's fixed facts.
    pub fn spec(self) -> KeySpec {
        use SettingKey as K;
        use SettingSection::{Ai, Company, Mail, Security};
        use SettingType as T;
        match self {
            K::CompanyName => db(Company, T::Text, true, "Company name"),
            K::CompanyAddressLine1 => db(Company, T::Text, true, "Address, first line"),
            K::CompanyAddressLine2 => db(Company, T::Text, true, "Address, second line"),
            K::CompanyCity => db(Company, T::Text, true, "City"),
            K::CompanyState => db(Company, T::Text, true, "State or region"),
            K::CompanyZip => db(Company, T::Text, true, "Postal code"),
            K::CompanyCountry => db(Company, T::Text, true, "Country"),
            K::CompanyPhone => db(Company, T::Text, true, "Phone"),
            K::CompanyEmail => db(Company, T::Email, true, "E-mail"),
            K::CompanyWebsite => db(Company, T::Url, true, "Website"),
            K::TaxEnabled => db(Company, T::Boolean, false, "Whether sales tax is charged"),
            K::TaxRatePercent => db(Company, T::Decimal, false, "Tax rate in percent (0-100)"),
            K::TaxName => db(Company, T::Text, true, "Tax name (Sales tax, VAT)"),
            K::TaxRegistrationNumber => db(Company, T::Text, true, "Tax registration number"),
            K::DefaultQuoteValidityDays => db(
                Company,
                T::Integer,
                false,
                "Days a new quote stays valid (1-365)",
            ),
            K::QuoteTerms => db(Company, T::LongText, true, "Terms printed on quotes"),
            K::QuoteFooter => db(Company, T::LongText, true, "Footer printed on quotes"),
            K::Timezone => db(
                Company,
                T::TimeZone,
                false,
                "IANA time zone (America/Chicago)",
            ),
            K::BusinessHoursStart => db(Company, T::Integer, false, "Opening hour (0-23)"),
            K::BusinessHoursEnd => db(Company, T::Integer, false, "Closing hour (0-23)"),
            K::BusinessDaysPerWeek => db(Company, T::Integer, false, "Working days a week (1-7)"),
            K::BusinessWorkDays => db(
                Company,
                T::WorkDays,
                false,
                "Working days, 0 (Monday) to 6 (Sunday), comma separated",
            ),
            K::AllowNegativeInventory => db(
                Company,
                T::Boolean,
                false,
                "Whether stock may go below zero (then flagged for review)",
            ),
            K::QualityMode => db(
                Company,
                T::Choice,
                false,
                "Quality management: off, basic (inspections recorded) or full (plan-driven, gated)",
            ),
            K::QualityGateAction => db(
                Company,
                T::Choice,
                false,
                "The inspection gate in full mode: off, warn or block",
            ),
            K::AiEnabled => db(Ai, T::Boolean, false, "Whether the AI assistant is on"),
            K::AiProvider => db(Ai, T::Choice, true, "The AI provider"),
            K::AiModel => db(Ai, T::Text, true, "The model name (at most 100 characters)"),
            K::AiOllamaUrl => db(
                Ai,
                T::Url,
                true,
                "The Ollama server's base URL (http://localhost:11434)",
            ),
            K::AiApiKey => env(Ai, T::Secret, "ANTHROPIC_API_KEY", "The Anthropic API key"),
            K::SmtpHost => env(Mail, T::Text, "SMTP_HOST", "Mail server host"),
            K::SmtpPort => env(Mail, T::Integer, "SMTP_PORT", "Mail server port"),
            K::SmtpUser => env(Mail, T::Text, "SMTP_USER", "Mail server user"),
            K::SmtpPassword => env(Mail, T::Secret, "SMTP_PASSWORD", "Mail server password"),
            K::SmtpFromEmail => env(Mail, T::Email, "SMTP_FROM_EMAIL", "Sender address"),
            K::SmtpSecurity => env(
                Mail,
                T::Choice,
                "SMTP_SECURITY",
                "How the mail connection is protected",
            ),
            K::SecretKey => env(Security, T::Secret, "SECRET_KEY", "The token signing key"),
            K::Environment => env(
                Security,
                T::Choice,
                "ENVIRONMENT",
                "development or production",
            ),
            K::FrontendUrl => env(
                Security,
                T::Url,
                "FRONTEND_URL",
                "The front end's base URL (links in e-mails)",
            ),
        }
    }

    /// The choices of a `choice` key.
    pub fn options(self) -> &'static [&'static str] {
        match self {
            SettingKey::AiProvider => &["anthropic", "ollama"],
            SettingKey::QualityMode => &["off", "basic", "full"],
            SettingKey::QualityGateAction => &["off", "warn", "block"],
            SettingKey::SmtpSecurity => &["starttls", "tls", "none"],
            SettingKey::Environment => &["development", "production"],
            _ => &[],
        }
    }

    /// Reads a key from a path or argument; an unknown one is a 404 naming the known keys.
    pub fn parse(raw: &str) -> AppResult<SettingKey> {
        raw.trim().parse().map_err(|_| {
            let known = SettingKey::VARIANTS
                .iter()
                .map(AsRef::as_ref)
                .collect::<Vec<&str>>()
                .join(", ");
            AppError::not_found(format!("Unknown setting '{raw}'. Known keys: {known}"))
        })
    }
}

/// One setting.
#[derive(Debug, Clone, SimpleObject)]
pub struct SystemSetting {
    /// The key.
    pub key: SettingKey,
    /// The group.
    pub section: SettingSection,
    /// The value's type.
    #[graphql(name = "type")]
    pub value_type: SettingType,
    /// The value (null when unset; `********` for a secret that is set).
    pub value: Json<Value>,
    /// Whether a value is set.
    pub is_set: bool,
    /// True for secrets: the value is never answered.
    pub masked: bool,
    /// True for settings that come from the environment (a `PUT` is refused).
    pub read_only: bool,
    /// Where the value lives.
    pub source: SettingSource,
    /// The environment variable of a read-only setting.
    pub env_var: Option<&'static str>,
    /// Whether the value can be cleared with null.
    pub nullable: bool,
    /// The choices of a `choice` setting.
    pub options: Vec<&'static str>,
    /// What it is.
    pub description: &'static str,
}

/// The result of a setting change.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct SystemSettingPayload {
    /// The setting after the change.
    pub setting: Option<SystemSetting>,
    /// Rule violations (nothing was changed when present).
    pub user_errors: Vec<UserError>,
}

/// Everything a view is built from (read once per request).
pub struct Sources<'a> {
    /// The company settings row.
    pub company: SettingsRow,
    /// The AI settings.
    pub ai: AiSettings,
    /// The process configuration.
    pub config: &'a Config,
}

impl Sources<'_> {
    /// Reads the stored settings.
    pub async fn read<'a>(
        conn: &mut AsyncPgConnection,
        config: &'a Config,
    ) -> AppResult<Sources<'a>> {
        Ok(Sources {
            company: model::get(conn).await?,
            ai: ai::current(conn).await?,
            config,
        })
    }
}

fn text(v: &Option<String>) -> Value {
    v.as_ref().map_or(Value::Null, |s| Value::String(s.clone()))
}

/// The raw value of a key (secrets included: [`view`] masks them).
fn raw_value(key: SettingKey, s: &Sources<'_>) -> Value {
    use SettingKey as K;
    let c = &s.company;
    let smtp = &s.config.smtp;
    match key {
        K::CompanyName => text(&c.company_name),
        K::CompanyAddressLine1 => text(&c.company_address_line1),
        K::CompanyAddressLine2 => text(&c.company_address_line2),
        K::CompanyCity => text(&c.company_city),
        K::CompanyState => text(&c.company_state),
        K::CompanyZip => text(&c.company_zip),
        K::CompanyCountry => text(&c.company_country),
        K::CompanyPhone => text(&c.company_phone),
        K::CompanyEmail => text(&c.company_email),
        K::CompanyWebsite => text(&c.company_website),
        K::TaxEnabled => json!(c.tax_enabled),
        K::TaxRatePercent => json!(rules::tax_percent(&c.tax_rate)),
        K::TaxName => text(&c.tax_name),
        K::TaxRegistrationNumber => text(&c.tax_registration_number),
        K::DefaultQuoteValidityDays => json!(c.default_quote_validity_days),
        K::QuoteTerms => text(&c.quote_terms),
        K::QuoteFooter => text(&c.quote_footer),
        K::Timezone => json!(c.timezone),
        K::BusinessHoursStart => json!(c.business_hours_start),
        K::BusinessHoursEnd => json!(c.business_hours_end),
        K::BusinessDaysPerWeek => json!(c.business_days_per_week),
        K::BusinessWorkDays => json!(c.business_work_days),
        K::AllowNegativeInventory => json!(c.allow_negative_inventory),
        K::QualityMode => json!(c.quality_mode.as_ref()),
        K::QualityGateAction => json!(c.quality_gate_action.as_ref()),
        K::AiEnabled => json!(s.ai.enabled),
        K::AiProvider => s.ai.provider.map_or(Value::Null, |p| json!(p)),
        K::AiModel => text(&s.ai.model),
        K::AiOllamaUrl => text(&s.ai.ollama_url),
        K::AiApiKey => json!(s.config.anthropic_api_key.is_some()),
        K::SmtpHost => text(&smtp.host),
        K::SmtpPort => smtp.port.map_or(Value::Null, |p| json!(p)),
        K::SmtpUser => text(&smtp.user),
        K::SmtpPassword => json!(smtp.password.is_some()),
        K::SmtpFromEmail => text(&smtp.from_email),
        K::SmtpSecurity => json!(smtp.security().as_str()),
        K::SecretKey => json!(!s.config.secret_key_generated),
        K::Environment => json!(s.config.environment.as_str()),
        K::FrontendUrl => json!(s.config.frontend_url),
    }
}

/// The view of one key: secrets masked (their raw value is only whether one is set).
pub fn view(key: SettingKey, s: &Sources<'_>) -> SystemSetting {
    let spec = key.spec();
    let raw = raw_value(key, s);
    let masked = spec.value_type == SettingType::Secret;
    let is_set = if masked {
        raw == Value::Bool(true)
    } else {
        raw != Value::Null
    };
    let value = match (masked, is_set) {
        (true, true) => Value::String(MASK.into()),
        (true, false) => Value::Null,
        (false, _) => raw,
    };
    SystemSetting {
        key,
        section: spec.section,
        value_type: spec.value_type,
        value: Json(value),
        is_set,
        masked,
        read_only: spec.env_var.is_some(),
        source: if spec.env_var.is_some() {
            SettingSource::Environment
        } else {
            SettingSource::Database
        },
        env_var: spec.env_var,
        nullable: spec.nullable,
        options: key.options().to_vec(),
        description: spec.description,
    }
}

fn value_error(message: impl Into<String>) -> UserError {
    invalid("value", message)
}

fn as_text(key: SettingKey, v: &Value) -> Result<Option<String>, UserError> {
    match v {
        Value::Null if key.spec().nullable => Ok(None),
        Value::Null => Err(value_error("This setting cannot be empty")),
        Value::String(s) if s.contains('\0') => {
            Err(value_error("Text must not contain a NUL character"))
        }
        Value::String(s) => Ok(Some(s.clone())),
        _ => Err(value_error("Input should be a valid string")),
    }
}

fn as_required_text(key: SettingKey, v: &Value) -> Result<String, UserError> {
    as_text(key, v)?.ok_or_else(|| value_error("This setting cannot be empty"))
}

fn as_bool(v: &Value) -> Result<bool, UserError> {
    match v {
        Value::Bool(b) => Ok(*b),
        Value::Null => Err(value_error("This setting cannot be empty")),
        _ => Err(value_error("Input should be a valid boolean")),
    }
}

/// One of a `choice` key's options (FilaOps's wording: "quality_mode must be one of: off,
/// basic, full").
fn as_choice<T: std::str::FromStr>(key: SettingKey, v: &Value) -> Result<T, UserError> {
    let wrong = || {
        value_error(format!(
            "{key} must be one of: {}",
            key.options().join(", ")
        ))
    };
    match v {
        Value::String(s) => s.trim().parse().map_err(|_| wrong()),
        _ => Err(wrong()),
    }
}

fn as_int(v: &Value) -> Result<i32, UserError> {
    match v {
        Value::Null => Err(value_error("This setting cannot be empty")),
        Value::Number(n) => n
            .as_i64()
            .and_then(|n| i32::try_from(n).ok())
            .ok_or_else(|| value_error("Input should be a valid integer")),
        _ => Err(value_error("Input should be a valid integer")),
    }
}

fn as_decimal(v: &Value) -> Result<BigDecimal, UserError> {
    let text = match v {
        Value::Null => return Err(value_error("This setting cannot be empty")),
        Value::Number(n) => n.to_string(),
        Value::String(s) => s.clone(),
        _ => return Err(value_error("Input should be a valid decimal")),
    };
    crate::platform::graphql::scalars::parse_decimal(&text).map_err(value_error)
}

fn set<T>(v: Option<T>) -> MaybeUndefined<T> {
    match v {
        Some(v) => MaybeUndefined::Value(v),
        None => MaybeUndefined::Null,
    }
}

/// The company settings change a value of `key` asks for (checked against its type only;
/// the rules check the rest).
fn company_input(key: SettingKey, v: &Value) -> Result<CompanySettingsInput, UserError> {
    use SettingKey as K;
    let mut i = CompanySettingsInput::default();
    match key {
        K::CompanyName => i.company_name = set(as_text(key, v)?),
        K::CompanyAddressLine1 => i.company_address_line1 = set(as_text(key, v)?),
        K::CompanyAddressLine2 => i.company_address_line2 = set(as_text(key, v)?),
        K::CompanyCity => i.company_city = set(as_text(key, v)?),
        K::CompanyState => i.company_state = set(as_text(key, v)?),
        K::CompanyZip => i.company_zip = set(as_text(key, v)?),
        K::CompanyCountry => i.company_country = set(as_text(key, v)?),
        K::CompanyPhone => i.company_phone = set(as_text(key, v)?),
        K::CompanyEmail => i.company_email = set(as_text(key, v)?),
        K::CompanyWebsite => i.company_website = set(as_text(key, v)?),
        K::TaxEnabled => i.tax_enabled = MaybeUndefined::Value(as_bool(v)?),
        K::TaxRatePercent => {
            i.tax_rate_percent = Some(crate::platform::graphql::scalars::Decimal(as_decimal(v)?))
        }
        K::TaxName => i.tax_name = set(as_text(key, v)?),
        K::TaxRegistrationNumber => i.tax_registration_number = set(as_text(key, v)?),
        K::DefaultQuoteValidityDays => {
            i.default_quote_validity_days = MaybeUndefined::Value(as_int(v)?)
        }
        K::QuoteTerms => i.quote_terms = set(as_text(key, v)?),
        K::QuoteFooter => i.quote_footer = set(as_text(key, v)?),
        K::Timezone => i.timezone = MaybeUndefined::Value(as_required_text(key, v)?),
        K::BusinessHoursStart => i.business_hours_start = MaybeUndefined::Value(as_int(v)?),
        K::BusinessHoursEnd => i.business_hours_end = MaybeUndefined::Value(as_int(v)?),
        K::BusinessDaysPerWeek => i.business_days_per_week = MaybeUndefined::Value(as_int(v)?),
        K::BusinessWorkDays => {
            i.business_work_days = MaybeUndefined::Value(as_required_text(key, v)?)
        }
        K::AllowNegativeInventory => {
            i.allow_negative_inventory = MaybeUndefined::Value(as_bool(v)?)
        }
        K::QualityMode => i.quality_mode = MaybeUndefined::Value(as_choice(key, v)?),
        K::QualityGateAction => i.quality_gate_action = MaybeUndefined::Value(as_choice(key, v)?),
        _ => return Err(value_error("This setting is not a company setting")),
    }
    Ok(i)
}

/// The AI settings change a value of `key` asks for.
fn ai_input(key: SettingKey, v: &Value) -> Result<AiSettingsInput, UserError> {
    let mut i = AiSettingsInput::default();
    match key {
        SettingKey::AiEnabled => i.enabled = Some(as_bool(v)?),
        SettingKey::AiProvider => {
            let provider = match v {
                Value::Null => None,
                Value::String(s) if s.trim().is_empty() => None,
                other => Some(
                    serde_json::from_value::<AiProvider>(other.clone())
                        .map_err(|_| value_error("Input should be 'anthropic' or 'ollama'"))?,
                ),
            };
            i.provider = set(provider);
        }
        SettingKey::AiModel => i.model = set(as_text(key, v)?),
        SettingKey::AiOllamaUrl => i.ollama_url = set(as_text(key, v)?),
        _ => return Err(value_error("This setting is not an AI setting")),
    }
    Ok(i)
}

/// Rule violations of the underlying settings named as the `value` they came from.
fn on_value(errors: Vec<UserError>) -> Vec<UserError> {
    errors
        .into_iter()
        .map(|mut e| {
            if e.code == UserErrorCode::Invalid {
                e.field = Some("value".into());
            }
            e
        })
        .collect()
}

/// Sets `key` to `value` (admins; the caller checked). Read-only keys are refused; type
/// errors and rule violations are user errors on `value`; a real change is audited by the
/// section's own update.
pub async fn put(
    conn: &mut AsyncPgConnection,
    config: &Config,
    actor: &CurrentUser,
    meta: Option<&RequestMeta>,
    key: SettingKey,
    value: &Value,
) -> AppResult<Result<SystemSetting, Vec<UserError>>> {
    let spec = key.spec();
    if let Some(var) = spec.env_var {
        return Ok(Err(vec![UserError::new(
            "key",
            UserErrorCode::NotAllowed,
            format!(
                "{key} comes from the environment variable {var}: change it in the deployment's environment (docker/.env) and restart Strata"
            ),
        )]));
    }
    let outcome = match spec.section {
        SettingSection::Ai => match ai_input(key, value) {
            Ok(input) => ai::update(conn, actor, meta, input).await?.map(|_| ()),
            Err(e) => Err(vec![e]),
        },
        _ => match company_input(key, value) {
            Ok(input) => rules::update(conn, actor, meta, input).await?.map(|_| ()),
            Err(e) => Err(vec![e]),
        },
    };
    if let Err(errors) = outcome {
        return Ok(Err(on_value(errors)));
    }
    let sources = Sources::read(conn, config).await?;
    Ok(Ok(view(key, &sources)))
}

/// The typed settings' queries.
#[derive(Default)]
pub struct SettingsRegistryQuery;

#[Object]
impl SettingsRegistryQuery {
    /// Every setting under its key (admins); secrets masked.
    #[graphql(guard = "Access::Admin")]
    async fn system_settings(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Only this group.")] section: Option<SettingSection>,
    ) -> AppResult<Vec<SystemSetting>> {
        let config = context::config(ctx)?;
        let sources = Sources::read(&mut *context::conn(ctx).await?, config).await?;
        Ok(SettingKey::VARIANTS
            .iter()
            .filter(|k| section.is_none_or(|s| k.spec().section == s))
            .map(|k| view(*k, &sources))
            .collect())
    }

    /// One setting (admins); an unknown key is NOT_FOUND naming the known keys.
    #[graphql(guard = "Access::Admin")]
    async fn system_setting(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The key (`company_name`, `ai_provider`, ...).")] key: String,
    ) -> AppResult<SystemSetting> {
        let key = SettingKey::parse(&key)?;
        let config = context::config(ctx)?;
        let sources = Sources::read(&mut *context::conn(ctx).await?, config).await?;
        Ok(view(key, &sources))
    }
}

/// The typed settings' mutations.
#[derive(Default)]
pub struct SettingsRegistryMutation;

#[Object]
impl SettingsRegistryMutation {
    /// Sets one setting (admins): the value must fit the key's type and the section's
    /// rules; settings from the environment are refused. Audited like the section's own
    /// update.
    #[graphql(guard = "Access::Admin")]
    async fn system_setting_update(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The key (`company_name`, `ai_provider`, ...).")] key: String,
        #[graphql(desc = "The new value, typed by the key (null clears a clearable one).")]
        value: MaybeUndefined<Json<Value>>,
    ) -> AppResult<SystemSettingPayload> {
        let key = SettingKey::parse(&key)?;
        let value = match value {
            MaybeUndefined::Undefined => {
                return Ok(SystemSettingPayload {
                    setting: None,
                    user_errors: vec![invalid("value", "Field required")],
                });
            }
            MaybeUndefined::Null => Value::Null,
            MaybeUndefined::Value(Json(v)) => v,
        };
        let actor = current_user(ctx).await?;
        let config = context::config(ctx)?;
        let mut conn = context::conn(ctx).await?;
        Ok(
            match put(&mut conn, config, &actor, context::meta(ctx), key, &value).await? {
                Ok(setting) => SystemSettingPayload {
                    setting: Some(setting),
                    user_errors: vec![],
                },
                Err(user_errors) => SystemSettingPayload {
                    setting: None,
                    user_errors,
                },
            },
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_read_back_and_unknown_ones_are_404() {
        for k in SettingKey::VARIANTS {
            assert_eq!(SettingKey::parse(k.as_ref()).expect("known"), *k);
            // GraphQL spells the enum values like the REST keys.
            assert_eq!(
                async_graphql::InputType::to_value(k).to_string(),
                k.to_string()
            );
        }
        assert_eq!(
            SettingKey::parse("company_address_line1").expect("key"),
            SettingKey::CompanyAddressLine1
        );
        let e = SettingKey::parse("nope").expect_err("unknown");
        assert_eq!(e.code, crate::platform::error::ErrorCode::NotFound);
        assert!(e.message.contains("company_name"), "{}", e.message);
    }

    #[test]
    fn values_are_checked_against_the_type() {
        assert!(company_input(SettingKey::TaxEnabled, &json!("yes")).is_err());
        assert!(company_input(SettingKey::TaxEnabled, &Value::Null).is_err());
        assert!(company_input(SettingKey::BusinessHoursStart, &json!(1.5)).is_err());
        assert!(company_input(SettingKey::TaxRatePercent, &json!("abc")).is_err());
        assert!(company_input(SettingKey::Timezone, &Value::Null).is_err());
        assert!(company_input(SettingKey::CompanyName, &Value::Null).is_ok());
        assert!(company_input(SettingKey::TaxRatePercent, &json!("8.25")).is_ok());
        assert!(ai_input(SettingKey::AiProvider, &json!("openai")).is_err());
        assert!(ai_input(SettingKey::AiProvider, &json!("ollama")).is_ok());
        assert!(ai_input(SettingKey::AiProvider, &Value::Null).is_ok());
        for k in SettingKey::VARIANTS {
            let spec = k.spec();
            assert_eq!(
                spec.value_type == SettingType::Choice,
                !k.options().is_empty(),
                "{k}"
            );
            if spec.value_type == SettingType::Secret {
                assert!(
                    spec.env_var.is_some(),
                    "secrets only come from the environment"
                );
            }
        }
    }
}
