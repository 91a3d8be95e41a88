//! The company settings in the schema: any signed-in user reads them (quotes, invoices and
//! schedules need them); only admins change them, and every change is in the security
//! audit log.

use async_graphql::{Context, Object, SimpleObject};

use crate::master_data::settings::model::{self, SettingsRow};
use crate::master_data::settings::rules;
use crate::platform::auth::Access;
use crate::platform::auth::viewer::current_user;
use crate::platform::error::AppResult;
use crate::platform::graphql::context;
use crate::platform::graphql::scalars::{Decimal, Timestamp};
use crate::platform::graphql::user_error::UserError;

/// The company's details, tax, quote defaults and working hours (one set per installation).
#[derive(Debug, Clone, SimpleObject)]
pub struct CompanySettings {
    /// Always 1 (there is one set of settings).
    pub id: i32,
    /// Company name.
    pub company_name: Option<String>,
    /// Address, first line.
    pub company_address_line1: Option<String>,
    /// Address, second line.
    pub company_address_line2: Option<String>,
    /// City.
    pub company_city: Option<String>,
    /// State or region.
    pub company_state: Option<String>,
    /// Postal code.
    pub company_zip: Option<String>,
    /// Country.
    pub company_country: Option<String>,
    /// Phone.
    pub company_phone: Option<String>,
    /// E-mail (lower case).
    pub company_email: Option<String>,
    /// Website.
    pub company_website: Option<String>,
    /// Whether a logo is stored (`/settings/company/logo`).
    pub has_logo: bool,
    /// The stored logo's file name.
    pub logo_filename: Option<String>,
    /// Whether sales tax is charged.
    pub tax_enabled: bool,
    /// Tax rate as a fraction (`0.0825` for 8.25 %).
    pub tax_rate: Decimal,
    /// Tax rate in percent (8.25), as a number.
    pub tax_rate_percent: f64,
    /// Tax name (`Sales tax`, `VAT`...).
    pub tax_name: Option<String>,
    /// Tax registration number.
    pub tax_registration_number: Option<String>,
    /// Days a new quote stays valid (default 30).
    pub default_quote_validity_days: i32,
    /// Terms printed on quotes.
    pub quote_terms: Option<String>,
    /// Footer printed on quotes.
    pub quote_footer: Option<String>,
    /// IANA time zone, e.g. `America/Chicago`.
    pub timezone: String,
    /// Opening hour (0-23).
    pub business_hours_start: i32,
    /// Closing hour (0-23).
    pub business_hours_end: i32,
    /// Working days a week.
    pub business_days_per_week: i32,
    /// Working days, `0` (Monday) to `6` (Sunday), comma separated (default `0,1,2,3,4`).
    pub business_work_days: String,
    /// ISO 4217 currency code (`USD`).
    pub currency_code: String,
    /// BCP 47 locale for money and dates (`en-US`).
    pub locale: String,
    /// Whether stock may go below zero (such movements are then flagged for review).
    pub allow_negative_inventory: bool,
    /// How much quality management the company runs.
    pub quality_mode: crate::master_data::settings::model::QualityMode,
    /// What the inspection gate does in `full` mode.
    pub quality_gate_action: crate::master_data::settings::model::QualityGateAction,
    /// The margin price suggestions aim for, in percent, as a number; none when unset.
    pub default_margin_percent: Option<f64>,
    /// Last changed.
    pub updated_at: Timestamp,
}

impl From<SettingsRow> for CompanySettings {
    fn from(r: SettingsRow) -> Self {
        CompanySettings {
            id: r.id,
            company_name: r.company_name,
            company_address_line1: r.company_address_line1,
            company_address_line2: r.company_address_line2,
            company_city: r.company_city,
            company_state: r.company_state,
            company_zip: r.company_zip,
            company_country: r.company_country,
            company_phone: r.company_phone,
            company_email: r.company_email,
            company_website: r.company_website,
            has_logo: r.logo_filename.is_some(),
            logo_filename: r.logo_filename,
            tax_enabled: r.tax_enabled,
            tax_rate_percent: rules::tax_percent(&r.tax_rate),
            tax_rate: Decimal(r.tax_rate),
            tax_name: r.tax_name,
            tax_registration_number: r.tax_registration_number,
            default_quote_validity_days: r.default_quote_validity_days,
            quote_terms: r.quote_terms,
            quote_footer: r.quote_footer,
            timezone: r.timezone,
            business_hours_start: r.business_hours_start,
            business_hours_end: r.business_hours_end,
            business_days_per_week: r.business_days_per_week,
            business_work_days: r.business_work_days,
            currency_code: r.currency_code,
            locale: r.locale,
            allow_negative_inventory: r.allow_negative_inventory,
            quality_mode: r.quality_mode,
            quality_gate_action: r.quality_gate_action,
            default_margin_percent: r
                .default_margin_percent
                .as_ref()
                .and_then(bigdecimal::ToPrimitive::to_f64),
            updated_at: Timestamp(r.updated_at),
        }
    }
}

/// Settings queries.
#[derive(Default)]
pub struct SettingsQuery;

#[Object]
impl SettingsQuery {
    /// The company settings (any signed-in user).
    #[graphql(guard = "Access::User")]
    async fn company_settings(&self, ctx: &Context<'_>) -> AppResult<CompanySettings> {
        Ok(model::get(&mut *context::conn(ctx).await?).await?.into())
    }
}

pub use crate::master_data::settings::model::CompanySettingsInput;

/// The result of a settings change.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct CompanySettingsPayload {
    /// The settings after the change.
    pub settings: Option<CompanySettings>,
    /// Rule violations (nothing was changed when present).
    pub user_errors: Vec<UserError>,
}

/// Settings mutations.
#[derive(Default)]
pub struct SettingsMutation;

#[Object]
impl SettingsMutation {
    /// Changes the company settings (admins); recorded in the security audit log.
    #[graphql(guard = "Access::Admin")]
    async fn company_settings_update(
        &self,
        ctx: &Context<'_>,
        input: CompanySettingsInput,
    ) -> AppResult<CompanySettingsPayload> {
        let actor = current_user(ctx).await?;
        let mut conn = context::conn(ctx).await?;
        Ok(
            match rules::update(&mut conn, &actor, context::meta(ctx), input).await? {
                Ok(row) => CompanySettingsPayload {
                    settings: Some(row.into()),
                    user_errors: vec![],
                },
                Err(user_errors) => CompanySettingsPayload {
                    settings: None,
                    user_errors,
                },
            },
        )
    }
}

pub use super::ai::{SettingsAiMutation, SettingsAiQuery};
pub use super::ai_test::SettingsAiTestMutation;
pub use super::logo::{SettingsLogoMutation, SettingsLogoQuery};
pub use super::registry::{SettingsRegistryMutation, SettingsRegistryQuery};
