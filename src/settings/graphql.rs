//! The company settings in the schema: any signed-in user reads them (quotes, invoices and
//! schedules need them); only admins change them, and every change is in the security
//! audit log.

use async_graphql::{Context, InputObject, MaybeUndefined, Object, SimpleObject};

use crate::auth::Access;
use crate::auth::viewer::current_user;
use crate::error::AppResult;
use crate::graphql::context;
use crate::graphql::scalars::{Decimal, Timestamp};
use crate::graphql::user_error::UserError;
use crate::settings::model::{self, SettingsRow};
use crate::settings::rules::{self, SettingsInput};

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
    /// Whether stock may go below zero (such movements are then flagged for review).
    pub allow_negative_inventory: bool,
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
            allow_negative_inventory: r.allow_negative_inventory,
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

/// Changes to the company settings: omitted fields keep their value; `null` or a blank
/// text clears a clearable one.
#[derive(Debug, Clone, Default, InputObject)]
pub struct CompanySettingsInput {
    /// Company name.
    #[graphql(directive = crate::graphql::limits::length::apply(crate::settings::rules::LINE_MAX))]
    pub company_name: MaybeUndefined<String>,
    /// Address, first line.
    #[graphql(directive = crate::graphql::limits::length::apply(crate::settings::rules::LINE_MAX))]
    pub company_address_line1: MaybeUndefined<String>,
    /// Address, second line.
    #[graphql(directive = crate::graphql::limits::length::apply(crate::settings::rules::LINE_MAX))]
    pub company_address_line2: MaybeUndefined<String>,
    /// City.
    #[graphql(directive = crate::graphql::limits::length::apply(crate::settings::rules::LINE_MAX))]
    pub company_city: MaybeUndefined<String>,
    /// State or region.
    #[graphql(directive = crate::graphql::limits::length::apply(crate::settings::rules::LINE_MAX))]
    pub company_state: MaybeUndefined<String>,
    /// Postal code.
    #[graphql(directive = crate::graphql::limits::length::apply(crate::settings::rules::LINE_MAX))]
    pub company_zip: MaybeUndefined<String>,
    /// Country.
    #[graphql(directive = crate::graphql::limits::length::apply(crate::settings::rules::LINE_MAX))]
    pub company_country: MaybeUndefined<String>,
    /// Phone.
    #[graphql(directive = crate::graphql::limits::length::apply(crate::settings::rules::LINE_MAX))]
    pub company_phone: MaybeUndefined<String>,
    /// E-mail.
    #[graphql(directive = crate::graphql::limits::length::apply(crate::settings::rules::LINE_MAX))]
    pub company_email: MaybeUndefined<String>,
    /// Website (`https://...`; a bare `example.com` is accepted).
    #[graphql(directive = crate::graphql::limits::length::apply(crate::settings::rules::LINE_MAX))]
    pub company_website: MaybeUndefined<String>,
    /// Whether sales tax is charged.
    pub tax_enabled: Option<bool>,
    /// Tax rate in percent, 0 to 100 with at most 4 decimals (stored as the fraction
    /// `taxRate`).
    pub tax_rate_percent: Option<Decimal>,
    /// Tax name.
    #[graphql(directive = crate::graphql::limits::length::apply(crate::settings::rules::LINE_MAX))]
    pub tax_name: MaybeUndefined<String>,
    /// Tax registration number.
    #[graphql(directive = crate::graphql::limits::length::apply(crate::settings::rules::LINE_MAX))]
    pub tax_registration_number: MaybeUndefined<String>,
    /// Days a new quote stays valid (1-365).
    pub default_quote_validity_days: Option<i32>,
    /// Terms printed on quotes.
    #[graphql(directive = crate::graphql::limits::length::apply(crate::settings::rules::LONG_TEXT_MAX))]
    pub quote_terms: MaybeUndefined<String>,
    /// Footer printed on quotes.
    #[graphql(directive = crate::graphql::limits::length::apply(crate::settings::rules::LONG_TEXT_MAX))]
    pub quote_footer: MaybeUndefined<String>,
    /// IANA time zone, e.g. `Europe/Berlin`.
    pub timezone: Option<String>,
    /// Opening hour (0-23).
    pub business_hours_start: Option<i32>,
    /// Closing hour (0-23).
    pub business_hours_end: Option<i32>,
    /// Working days a week (1-7; set from `businessWorkDays` when only that is given).
    pub business_days_per_week: Option<i32>,
    /// Working days, `0` (Monday) to `6` (Sunday), comma separated.
    pub business_work_days: Option<String>,
    /// Whether stock may go below zero.
    pub allow_negative_inventory: Option<bool>,
}

fn change(v: MaybeUndefined<String>) -> rules::TextChange {
    match v {
        MaybeUndefined::Undefined => None,
        MaybeUndefined::Null => Some(None),
        MaybeUndefined::Value(x) => Some(Some(x)),
    }
}

impl From<CompanySettingsInput> for SettingsInput {
    fn from(i: CompanySettingsInput) -> Self {
        SettingsInput {
            company_name: change(i.company_name),
            company_address_line1: change(i.company_address_line1),
            company_address_line2: change(i.company_address_line2),
            company_city: change(i.company_city),
            company_state: change(i.company_state),
            company_zip: change(i.company_zip),
            company_country: change(i.company_country),
            company_phone: change(i.company_phone),
            company_email: change(i.company_email),
            company_website: change(i.company_website),
            tax_enabled: i.tax_enabled,
            tax_rate_percent: i.tax_rate_percent.map(|d| d.0),
            tax_name: change(i.tax_name),
            tax_registration_number: change(i.tax_registration_number),
            default_quote_validity_days: i.default_quote_validity_days,
            quote_terms: change(i.quote_terms),
            quote_footer: change(i.quote_footer),
            timezone: i.timezone,
            business_hours_start: i.business_hours_start,
            business_hours_end: i.business_hours_end,
            business_days_per_week: i.business_days_per_week,
            business_work_days: i.business_work_days,
            allow_negative_inventory: i.allow_negative_inventory,
        }
    }
}

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
            match rules::update(&mut conn, &actor, context::meta(ctx), input.into()).await? {
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
