//! The company settings row (a singleton, id 1) and the queries on it.

use bigdecimal::BigDecimal;
use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel::sql_types::{Bool, Text};
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::master_data::settings::rules::{LINE_MAX, LONG_TEXT_MAX};
use crate::platform::db::schema::company_settings;
use crate::platform::error::AppResult;
use crate::platform::graphql::limits::length;

crate::text_enum! {
    /// How much quality management the company runs.
    pub enum QualityMode {
        /// No quality pages, no gate: QC is a status on the order only.
        Off,
        /// Inspections are recorded (measurements, defects, photos); no plan is required.
        Basic,
        /// Plan-driven: a product's active quality plan says what an inspection must
        /// measure, and the gate applies.
        Full,
    }
}

crate::text_enum! {
    /// What the inspection gate does, in `full` mode, when quality is not shown.
    pub enum QualityGateAction {
        /// Nothing.
        Off,
        /// The action goes ahead and says what is missing.
        Warn,
        /// The action is refused until quality is shown.
        Block,
    }
}

/// The id of the one settings row.
pub const SETTINGS_ID: i32 = 1;

/// The stored settings.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = company_settings)]
pub struct SettingsRow {
    /// Always 1.
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
    /// The stored logo's file name.
    pub logo_filename: Option<String>,
    /// Whether sales tax is charged.
    pub tax_enabled: bool,
    /// Tax rate as a fraction (0.0825 for 8.25 %).
    pub tax_rate: BigDecimal,
    /// Tax name (`Sales tax`, `VAT`).
    pub tax_name: Option<String>,
    /// Tax registration number.
    pub tax_registration_number: Option<String>,
    /// Days a quote stays valid.
    pub default_quote_validity_days: i32,
    /// Quote terms.
    pub quote_terms: Option<String>,
    /// Quote footer.
    pub quote_footer: Option<String>,
    /// IANA time zone.
    pub timezone: String,
    /// Opening hour (0-23).
    pub business_hours_start: i32,
    /// Closing hour (0-23).
    pub business_hours_end: i32,
    /// Working days a week.
    pub business_days_per_week: i32,
    /// Working days, `0` Monday to `6` Sunday, comma separated.
    pub business_work_days: String,
    /// ISO 4217 currency code (`USD`).
    pub currency_code: String,
    /// BCP 47 locale for money and dates (`en-US`).
    pub locale: String,
    /// Whether stock may go below zero (then flagged for review).
    pub allow_negative_inventory: bool,
    /// How much quality management the company runs.
    pub quality_mode: QualityMode,
    /// What the inspection gate does when quality is not shown.
    pub quality_gate_action: QualityGateAction,
    /// The margin price suggestions aim for, in percent (0 to 99.99); none when unset.
    pub default_margin_percent: Option<BigDecimal>,
    /// Changed.
    pub updated_at: DateTime<Utc>,
}

crate::input_forms! {
    table = company_settings;
    /// Changes to the company settings: omitted fields keep their value; `null` or a blank
    /// text clears a clearable one (`null` leaves any other as it is).
    update CompanySettingsInput;
    /// The settings' writable columns, checked and reduced to real changes by
    /// `rules::check`. The logo has its own routes.
    form SettingsForm;
    {
        /// Company name.
        [directive = length::apply(LINE_MAX)]
        company_name: clearable String,
        /// Address, first line.
        [directive = length::apply(LINE_MAX)]
        company_address_line1: clearable String,
        /// Address, second line.
        [directive = length::apply(LINE_MAX)]
        company_address_line2: clearable String,
        /// City.
        [directive = length::apply(LINE_MAX)]
        company_city: clearable String,
        /// State or region.
        [directive = length::apply(LINE_MAX)]
        company_state: clearable String,
        /// Postal code.
        [directive = length::apply(LINE_MAX)]
        company_zip: clearable String,
        /// Country.
        [directive = length::apply(LINE_MAX)]
        company_country: clearable String,
        /// Phone.
        [directive = length::apply(LINE_MAX)]
        company_phone: clearable String,
        /// E-mail (stored in lower case).
        [directive = length::apply(LINE_MAX)]
        company_email: clearable String,
        /// Website (`https://...`; a bare `example.com` is accepted).
        [directive = length::apply(LINE_MAX)]
        company_website: clearable String,
        /// Whether sales tax is charged.
        tax_enabled: optional bool,
        /// Tax rate as a fraction: set from `taxRatePercent`, never sent itself.
        @update[skip]
        tax_rate: optional BigDecimal,
        /// Tax name.
        [directive = length::apply(LINE_MAX)]
        tax_name: clearable String,
        /// Tax registration number.
        [directive = length::apply(LINE_MAX)]
        tax_registration_number: clearable String,
        /// Days a new quote stays valid (1-365).
        default_quote_validity_days: optional i32,
        /// Terms printed on quotes.
        [directive = length::apply(LONG_TEXT_MAX)]
        quote_terms: clearable String,
        /// Footer printed on quotes.
        [directive = length::apply(LONG_TEXT_MAX)]
        quote_footer: clearable String,
        /// IANA time zone, e.g. `Europe/Berlin`.
        timezone: optional String,
        /// Opening hour (0-23).
        business_hours_start: optional i32,
        /// Closing hour (0-23).
        business_hours_end: optional i32,
        /// Working days a week (1-7; set from `businessWorkDays` when only that is given).
        business_days_per_week: optional i32,
        /// Working days, `0` (Monday) to `6` (Sunday), comma separated.
        business_work_days: optional String,
        /// ISO 4217 currency code, three letters (`USD`, `EUR`).
        [directive = length::apply(3)]
        currency_code: optional String,
        /// BCP 47 locale for money and dates (`en-US`, `de-DE`).
        [directive = length::apply(35)]
        locale: optional String,
        /// Whether stock may go below zero.
        allow_negative_inventory: optional bool,
        /// How much quality management the company runs (`off`, `basic`, `full`).
        quality_mode: optional QualityMode,
        /// What the inspection gate does in `full` mode (`off`, `warn`, `block`).
        quality_gate_action: optional QualityGateAction,
        /// The margin price suggestions aim for, in percent (0 to 99.99, two decimals);
        /// `null` clears it.
        default_margin_percent: clearable BigDecimal,
    }
    inputs {
        /// Tax rate in percent, 0 to 100 with at most 4 decimals (stored as the fraction
        /// `taxRate`).
        tax_rate_percent: Option<crate::platform::graphql::scalars::Decimal>,
    }
}

async fn read(conn: &mut AsyncPgConnection, lock: bool) -> AppResult<Option<SettingsRow>> {
    let q = company_settings::table
        .find(SETTINGS_ID)
        .select(SettingsRow::as_select());
    Ok(if lock {
        q.for_update().first(conn).await.optional()?
    } else {
        q.first(conn).await.optional()?
    })
}

/// The settings row; the defaults are put back first if the row was ever removed.
pub async fn get(conn: &mut AsyncPgConnection) -> AppResult<SettingsRow> {
    if let Some(row) = read(conn, false).await? {
        return Ok(row);
    }
    ensure(conn).await?;
    read(conn, false).await?.ok_or_else(|| {
        crate::platform::error::AppError::internal("the company settings row is missing")
    })
}

/// The settings row, locked until the transaction ends.
pub async fn get_for_update(conn: &mut AsyncPgConnection) -> AppResult<SettingsRow> {
    ensure(conn).await?;
    read(conn, true).await?.ok_or_else(|| {
        crate::platform::error::AppError::internal("the company settings row is missing")
    })
}

async fn ensure(conn: &mut AsyncPgConnection) -> AppResult<()> {
    diesel::insert_into(company_settings::table)
        .values(company_settings::id.eq(SETTINGS_ID))
        .on_conflict_do_nothing()
        .execute(conn)
        .await?;
    Ok(())
}

/// Applies changes (nothing to change answers the row as it is).
pub async fn update(
    conn: &mut AsyncPgConnection,
    changes: &SettingsForm,
) -> AppResult<SettingsRow> {
    let result = diesel::update(company_settings::table.find(SETTINGS_ID))
        .set(changes)
        .returning(SettingsRow::as_returning())
        .get_result(conn)
        .await;
    match result {
        Err(e) if crate::platform::db::is_empty_update(&e) => get(conn).await,
        other => Ok(other?),
    }
}

#[derive(QueryableByName)]
struct Flag {
    #[diesel(sql_type = Bool)]
    flag: bool,
}

/// True when PostgreSQL knows `name` as an IANA time zone (its copy of the tz database;
/// the `posix/` and `right/` variants are not offered).
pub async fn is_time_zone(conn: &mut AsyncPgConnection, name: &str) -> AppResult<bool> {
    let found: Flag = diesel::sql_query(
        "SELECT EXISTS (SELECT 1 FROM pg_timezone_names \
         WHERE name = $1 AND name NOT LIKE 'posix/%' AND name NOT LIKE 'right/%') AS flag",
    )
    .bind::<Text, _>(name)
    .get_result(conn)
    .await?;
    Ok(found.flag)
}

impl SettingsRow {
    /// How documents write money and dates (the company's currency and locale).
    pub fn document_locale(&self) -> crate::platform::documents::locale::DocumentLocale {
        crate::platform::documents::locale::DocumentLocale::new(&self.currency_code, &self.locale)
    }

    /// The company block of the documents' letterhead.
    pub fn company(&self) -> crate::platform::documents::Company<'_> {
        crate::platform::documents::Company {
            company_name: self.company_name.as_deref(),
            company_address_line1: self.company_address_line1.as_deref(),
            company_address_line2: self.company_address_line2.as_deref(),
            company_city: self.company_city.as_deref(),
            company_state: self.company_state.as_deref(),
            company_zip: self.company_zip.as_deref(),
            company_country: self.company_country.as_deref(),
            company_phone: self.company_phone.as_deref(),
            company_email: self.company_email.as_deref(),
            company_website: self.company_website.as_deref(),
        }
    }
}
