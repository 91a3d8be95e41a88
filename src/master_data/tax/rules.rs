//! Tax rate rules: names and descriptions trimmed, the rate given in percent (0-100, at most
//! 4 decimals) and kept as a fraction, one default (making a rate the default takes it from
//! the one before), names and regions unique among the active rates; and [`resolve`], the one
//! place that decides which rate a quote, order or invoice charges.

use bigdecimal::{BigDecimal, Zero};
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::master_data::settings::rules::tax_fraction;
use crate::master_data::tax::model::{
    self, TaxRateCreateInput, TaxRateForm, TaxRateRow, TaxRateUpdateInput,
};
use crate::platform::db::schema::{company_settings, customers, tax_rates};
use crate::platform::db::text;
use crate::platform::error::{AppError, AppResult, ErrorCode};
use crate::platform::graphql::user_error::{Stop, UserError, UserErrorCode};

/// Longest name.
pub const NAME_MAX: usize = 100;
/// Longest description.
pub const DESCRIPTION_MAX: usize = 500;
/// Longest region.
pub const REGION_MAX: usize = 100;

/// A new or changed rate as the rules read it: the form and the percentage given.
pub struct TaxRateChange {
    form: TaxRateForm,
    rate_percent: Option<Option<BigDecimal>>,
}

impl From<TaxRateCreateInput> for TaxRateChange {
    fn from(mut input: TaxRateCreateInput) -> Self {
        let percent = input.rate_percent.take().map(|d| d.0);
        TaxRateChange {
            form: input.into(),
            rate_percent: Some(percent),
        }
    }
}

impl From<TaxRateUpdateInput> for TaxRateChange {
    fn from(mut input: TaxRateUpdateInput) -> Self {
        let percent = input.rate_percent.take();
        TaxRateChange {
            form: input.into(),
            // Omitted on update keeps the rate.
            rate_percent: percent.map(|d| Some(d.0)),
        }
    }
}

/// Checks and normalises a change: texts trimmed, the percentage turned into the fraction.
fn check_fields(change: &mut TaxRateChange, creating: bool) -> Vec<UserError> {
    let mut errors = Vec::new();
    let form = &mut change.form;
    text::required(&mut errors, "name", &mut form.name, creating, NAME_MAX);
    text::clearable(
        &mut errors,
        "description",
        &mut form.description,
        DESCRIPTION_MAX,
    );
    text::clearable(&mut errors, "region", &mut form.region, REGION_MAX);
    match &change.rate_percent {
        Some(Some(percent)) => match tax_fraction(percent) {
            Ok(fraction) => form.rate = Some(fraction),
            Err(message) => errors.push(UserError::new(
                "ratePercent",
                UserErrorCode::Invalid,
                message,
            )),
        },
        Some(None) if creating => errors.push(UserError::new(
            "ratePercent",
            UserErrorCode::Invalid,
            "Field required",
        )),
        _ => {}
    }
    errors
}

/// Another active rate with this name or region (ignoring case), as the refusal to give.
async fn clash(
    conn: &mut AsyncPgConnection,
    id: Option<i64>,
    form: &TaxRateForm,
) -> AppResult<Option<UserError>> {
    let others = || {
        let mut q = tax_rates::table
            .filter(tax_rates::is_active.eq(true))
            .into_boxed();
        if let Some(id) = id {
            q = q.filter(tax_rates::id.ne(id));
        }
        q
    };
    if let Some(name) = &form.name {
        let taken: i64 = others()
            .filter(
                diesel::dsl::sql::<diesel::sql_types::Bool>("lower(name) = lower(")
                    .bind::<diesel::sql_types::Text, _>(name.clone())
                    .sql(")"),
            )
            .count()
            .get_result(conn)
            .await?;
        if taken > 0 {
            return Ok(Some(UserError::new(
                "name",
                UserErrorCode::Taken,
                format!("A tax rate named '{name}' already exists"),
            )));
        }
    }
    if let Some(Some(region)) = &form.region {
        let holder: Option<String> = others()
            .filter(text::code_matches(
                tax_rates::region.assume_not_null(),
                region,
            ))
            .select(tax_rates::name)
            .first(conn)
            .await
            .optional()?;
        if let Some(holder) = holder {
            return Ok(Some(UserError::new(
                "region",
                UserErrorCode::Taken,
                format!("Region '{region}' already has the tax rate '{holder}'"),
            )));
        }
    }
    Ok(None)
}

/// Saves a new (`id` is `None`) or changed rate; making it the default takes the default
/// from the rate that had it, in the same transaction. Nothing is written when a rule fails.
pub async fn save(
    conn: &mut AsyncPgConnection,
    id: Option<i64>,
    mut change: TaxRateChange,
) -> Result<TaxRateRow, Stop> {
    if let Some(id) = id {
        // Locks the row: two admins changing the same rate take turns.
        tax_rates::table
            .find(id)
            .select(tax_rates::id)
            .for_update()
            .first::<i64>(conn)
            .await
            .optional()?
            .ok_or_else(model::not_found)?;
    }
    let errors = check_fields(&mut change, id.is_none());
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    let mut form = change.form;
    if let Some(refusal) = clash(conn, id, &form).await? {
        return Err(refusal.into());
    }
    if form.is_default == Some(true) {
        let mut others =
            diesel::update(tax_rates::table.filter(tax_rates::is_default.eq(true))).into_boxed();
        if let Some(id) = id {
            others = others.filter(tax_rates::id.ne(id));
        }
        others
            .set(tax_rates::is_default.eq(false))
            .execute(conn)
            .await?;
    }
    let written = match id {
        Some(id) => {
            form.updated_at = Some(chrono::Utc::now());
            diesel::update(tax_rates::table.find(id))
                .set(&form)
                .returning(TaxRateRow::as_returning())
                .get_result(conn)
                .await
        }
        None => {
            diesel::insert_into(tax_rates::table)
                .values(&form)
                .returning(TaxRateRow::as_returning())
                .get_result(conn)
                .await
        }
    };
    match written.map_err(AppError::from) {
        Ok(row) => Ok(row),
        // A concurrent change took the name, region or default first.
        Err(e) if e.code == ErrorCode::Conflict => Err(Stop::refuse(
            "name",
            UserErrorCode::Taken,
            "Another tax rate was saved with the same name, region or default at the same time; try again",
        )),
        Err(e) => Err(e.into()),
    }
}

/// Deactivates a rate (no longer offered or resolved; documents that charged it keep it,
/// and so do the customers assigned to it, who fall through to the next rule).
pub async fn deactivate(conn: &mut AsyncPgConnection, id: i64) -> Result<TaxRateRow, Stop> {
    let row = diesel::update(tax_rates::table.find(id))
        .set((
            tax_rates::is_active.eq(false),
            tax_rates::is_default.eq(false),
            tax_rates::updated_at.eq(chrono::Utc::now()),
        ))
        .returning(TaxRateRow::as_returning())
        .get_result(conn)
        .await
        .optional()?;
    row.ok_or_else(|| model::not_found().into())
}

crate::text_enum! {
    /// Which rule chose a document's tax rate, in the order they are tried.
    pub enum TaxSource {
        /// Tax was turned off for the document (a quote's `applyTax: false`) or for the
        /// company (settings).
        Off,
        /// The customer is tax exempt.
        Exempt,
        /// The rate chosen for the document.
        Chosen,
        /// The customer's own rate.
        Customer,
        /// The rate of the shipping state or region.
        Region,
        /// The default rate.
        Default,
        /// The company settings' single rate (no named rate applies).
        Company,
    }
}

/// The rate a document charges and where it came from.
#[derive(Debug, Clone)]
pub struct AppliedTax {
    /// The rate as a fraction (0 when off or exempt).
    pub rate: BigDecimal,
    /// The named rate charged, if one.
    pub tax_rate_id: Option<i64>,
    /// The name shown on the document ("Tax exempt", the rate's name, the settings' tax
    /// name); none when no tax is charged for another reason or the settings name none.
    pub name: Option<String>,
    /// Which rule chose it.
    pub source: TaxSource,
}

impl AppliedTax {
    fn none(source: TaxSource, name: Option<String>) -> AppliedTax {
        AppliedTax {
            rate: BigDecimal::zero(),
            tax_rate_id: None,
            name,
            source,
        }
    }

    fn of(row: TaxRateRow, source: TaxSource) -> AppliedTax {
        AppliedTax {
            rate: row.rate,
            tax_rate_id: Some(row.id),
            name: Some(row.name),
            source,
        }
    }
}

/// What decides a document's tax.
#[derive(Debug, Clone, Default)]
pub struct TaxQuestion<'a> {
    /// The customer, if known.
    pub customer_id: Option<i64>,
    /// The shipping state or region.
    pub region: Option<&'a str>,
    /// A rate chosen for this document.
    pub chosen: Option<i64>,
    /// `Some(false)`: charge no tax on this document.
    pub apply: Option<bool>,
}

/// The rate a document charges: off when the document or the company says so, else the
/// customer's exemption, the chosen rate, the customer's rate, the shipping region's rate,
/// the default rate, and last the company settings' rate. A chosen rate that does not exist
/// or is inactive is refused on `taxRateId`.
pub async fn resolve(conn: &mut AsyncPgConnection, q: TaxQuestion<'_>) -> Result<AppliedTax, Stop> {
    if q.apply == Some(false) {
        return Ok(AppliedTax::none(TaxSource::Off, None));
    }
    let settings: Option<(bool, BigDecimal, Option<String>)> = company_settings::table
        .select((
            company_settings::tax_enabled,
            company_settings::tax_rate,
            company_settings::tax_name,
        ))
        .order(company_settings::id)
        .first(conn)
        .await
        .optional()?;
    let (enabled, company_rate, company_name) =
        settings.unwrap_or((false, BigDecimal::zero(), None));
    let customer: Option<(bool, Option<String>, Option<i64>)> = match q.customer_id {
        Some(id) => customers::table
            .find(id)
            .select((
                customers::tax_exempt,
                customers::tax_exempt_certificate,
                customers::tax_rate_id,
            ))
            .first(conn)
            .await
            .optional()?,
        None => None,
    };
    if let Some((true, certificate, _)) = &customer {
        let name = match certificate {
            Some(c) => format!("Tax exempt ({c})"),
            None => "Tax exempt".to_string(),
        };
        return Ok(AppliedTax::none(TaxSource::Exempt, Some(name)));
    }
    if let Some(id) = q.chosen {
        let row = model::find(conn, id).await?.filter(|r| r.is_active);
        return match row {
            Some(row) => Ok(AppliedTax::of(row, TaxSource::Chosen)),
            None => Err(Stop::refuse(
                "taxRateId",
                UserErrorCode::NotFound,
                "Tax rate not found",
            )),
        };
    }
    if !enabled {
        return Ok(AppliedTax::none(TaxSource::Off, None));
    }
    let active = || {
        tax_rates::table
            .filter(tax_rates::is_active.eq(true))
            .select(TaxRateRow::as_select())
    };
    if let Some((_, _, Some(rate_id))) = customer
        && let Some(row) = active()
            .filter(tax_rates::id.eq(rate_id))
            .first(conn)
            .await
            .optional()?
    {
        return Ok(AppliedTax::of(row, TaxSource::Customer));
    }
    if let Some(region) = q.region.map(str::trim).filter(|r| !r.is_empty())
        && let Some(row) = active()
            .filter(text::code_matches(
                tax_rates::region.assume_not_null(),
                region,
            ))
            .first(conn)
            .await
            .optional()?
    {
        return Ok(AppliedTax::of(row, TaxSource::Region));
    }
    if let Some(row) = active()
        .filter(tax_rates::is_default.eq(true))
        .first(conn)
        .await
        .optional()?
    {
        return Ok(AppliedTax::of(row, TaxSource::Default));
    }
    Ok(AppliedTax {
        rate: company_rate,
        tax_rate_id: None,
        // The settings' tax name, if any: documents fall back to "Tax" as they always did.
        name: company_name,
        source: TaxSource::Company,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    fn change(name: Option<&str>, percent: Option<&str>, creating: bool) -> TaxRateChange {
        let percent = percent.map(|p| BigDecimal::from_str(p).unwrap());
        TaxRateChange {
            form: TaxRateForm {
                name: name.map(str::to_string),
                ..Default::default()
            },
            rate_percent: if creating {
                Some(percent)
            } else {
                percent.map(Some)
            },
        }
    }

    #[test]
    fn the_percentage_becomes_the_fraction_and_bad_ones_are_refused() {
        let mut good = change(Some(" State "), Some("8.25"), true);
        assert!(check_fields(&mut good, true).is_empty());
        assert_eq!(good.form.name.as_deref(), Some("State"));
        assert_eq!(
            good.form.rate,
            Some(BigDecimal::from_str("0.082500").unwrap())
        );
        let mut missing = change(Some("X"), None, true);
        let errors = check_fields(&mut missing, true);
        assert_eq!(errors[0].field.as_deref(), Some("ratePercent"));
        let mut high = change(None, Some("101"), false);
        let errors = check_fields(&mut high, false);
        assert_eq!(errors[0].message, "Input should be between 0 and 100");
        let mut kept = change(None, None, false);
        assert!(check_fields(&mut kept, false).is_empty());
        assert_eq!(kept.form.rate, None);
    }
}
