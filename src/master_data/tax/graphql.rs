//! Tax rates in the schema: any signed-in user reads them and asks which rate a document
//! would charge; admins add, change and deactivate them (tax is an admin section).

use async_graphql::{Context, Object, SimpleObject};

use crate::master_data::settings::rules::tax_percent;
use crate::master_data::tax::model::{self, TaxRateCreateInput, TaxRateRow, TaxRateUpdateInput};
use crate::master_data::tax::rules::{self, AppliedTax, TaxQuestion, TaxSource};
use crate::platform::auth::Access;
use crate::platform::error::AppResult;
use crate::platform::graphql::context;
use crate::platform::graphql::scalars::{Decimal, Timestamp};
use crate::platform::graphql::user_error::{Stop, UserError};

/// A named tax rate.
#[derive(Debug, Clone, SimpleObject)]
pub struct TaxRate {
    /// Id.
    pub id: i64,
    /// Name.
    pub name: String,
    /// The rate as a fraction (0.0825 for 8.25 %).
    pub rate: Decimal,
    /// The rate in percent (8.25).
    pub rate_percent: f64,
    /// Description.
    pub description: Option<String>,
    /// The shipping state or region it applies to.
    pub region: Option<String>,
    /// The default rate.
    pub is_default: bool,
    /// Active (deleted rates are inactive).
    pub is_active: bool,
    /// Created.
    pub created_at: Timestamp,
    /// Changed.
    pub updated_at: Timestamp,
}

impl From<TaxRateRow> for TaxRate {
    fn from(r: TaxRateRow) -> Self {
        TaxRate {
            id: r.id,
            name: r.name,
            rate_percent: tax_percent(&r.rate),
            rate: Decimal(r.rate),
            description: r.description,
            region: r.region,
            is_default: r.is_default,
            is_active: r.is_active,
            created_at: Timestamp(r.created_at),
            updated_at: Timestamp(r.updated_at),
        }
    }
}

/// The rate a document would charge, and why.
#[derive(Debug, Clone, SimpleObject)]
pub struct TaxResolution {
    /// The rate as a fraction.
    pub rate: Decimal,
    /// The rate in percent.
    pub rate_percent: f64,
    /// The named rate, if one.
    pub tax_rate_id: Option<i64>,
    /// What the document shows.
    pub name: Option<String>,
    /// Which rule chose it.
    pub source: TaxSource,
}

impl From<AppliedTax> for TaxResolution {
    fn from(a: AppliedTax) -> Self {
        TaxResolution {
            rate_percent: tax_percent(&a.rate),
            rate: Decimal(a.rate),
            tax_rate_id: a.tax_rate_id,
            name: a.name,
            source: a.source,
        }
    }
}

/// Tax rate queries (any signed-in user).
#[derive(Default)]
pub struct TaxRatesQuery;

#[Object]
impl TaxRatesQuery {
    /// The tax rates, the default first, then by name.
    #[graphql(guard = "Access::User")]
    async fn tax_rates(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Include deleted (inactive) rates.", default = false)]
        include_inactive: bool,
    ) -> AppResult<Vec<TaxRate>> {
        let rows = model::list(&mut *context::conn(ctx).await?, include_inactive).await?;
        Ok(rows.into_iter().map(TaxRate::from).collect())
    }

    /// One tax rate by id.
    #[graphql(guard = "Access::User")]
    async fn tax_rate(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The rate's id.")] id: i64,
    ) -> AppResult<TaxRate> {
        Ok(model::get(&mut *context::conn(ctx).await?, id)
            .await?
            .into())
    }

    /// The rate a quote or order for this customer and shipping region would charge, and
    /// which rule chose it (exemption, chosen, customer, region, default, company, off).
    #[graphql(guard = "Access::User")]
    async fn tax_resolution(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The customer.")] customer_id: Option<i64>,
        #[graphql(desc = "The shipping state or region.")] region: Option<String>,
        #[graphql(desc = "A rate chosen for the document.")] tax_rate_id: Option<i64>,
    ) -> AppResult<TaxResolution> {
        let question = TaxQuestion {
            customer_id,
            region: region.as_deref(),
            chosen: tax_rate_id,
            apply: None,
        };
        let applied =
            Stop::into_app(rules::resolve(&mut *context::conn(ctx).await?, question).await)?;
        Ok(applied.into())
    }
}

/// The result of a tax rate change.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct TaxRatePayload {
    /// The rate after the change.
    pub tax_rate: Option<TaxRate>,
    /// Rule violations (nothing was changed when present).
    pub user_errors: Vec<UserError>,
}

impl From<Result<TaxRateRow, Vec<UserError>>> for TaxRatePayload {
    fn from(saved: Result<TaxRateRow, Vec<UserError>>) -> Self {
        match saved {
            Ok(row) => TaxRatePayload {
                tax_rate: Some(row.into()),
                user_errors: Vec::new(),
            },
            Err(user_errors) => TaxRatePayload {
                tax_rate: None,
                user_errors,
            },
        }
    }
}

/// Tax rate mutations (admins).
#[derive(Default)]
pub struct TaxRatesMutation;

#[Object]
impl TaxRatesMutation {
    /// Adds a tax rate (`isDefault` takes the default from the rate that had it).
    #[graphql(guard = "Access::Admin")]
    async fn tax_rate_create(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The new rate.")] input: TaxRateCreateInput,
    ) -> AppResult<TaxRatePayload> {
        Ok(crate::in_transaction!(ctx, |conn| rules::save(conn, None, input.into())).into())
    }

    /// Changes a tax rate's name, rate, description, region or default flag. Documents
    /// already written keep the rate they charged.
    #[graphql(guard = "Access::Admin")]
    async fn tax_rate_update(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The rate's id.")] id: i64,
        #[graphql(desc = "The changes.")] input: TaxRateUpdateInput,
    ) -> AppResult<TaxRatePayload> {
        Ok(crate::in_transaction!(ctx, |conn| rules::save(conn, Some(id), input.into())).into())
    }

    /// Deletes (deactivates) a tax rate: no longer offered or resolved; documents that
    /// charged it keep it.
    #[graphql(guard = "Access::Admin")]
    async fn tax_rate_delete(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The rate's id.")] id: i64,
    ) -> AppResult<TaxRatePayload> {
        Ok(crate::in_transaction!(ctx, |conn| rules::deactivate(conn, id)).into())
    }
}
