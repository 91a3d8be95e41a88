//! Quality management in the schema: the policy, defect reasons, quality plans, inspections
//! (recorded on an order, read as its history), their photos and the dashboard. Any
//! signed-in user reads and records; changing the defect taxonomy is for admins (like scrap
//! reasons).

use async_graphql::dataloader::{DataLoader, HashMapCache};
use async_graphql::{Context, Object, SimpleObject, Upload};

use crate::operations::production::inspections::{self, InspectionRow};
use crate::operations::production::model::OrderRow;
use crate::operations::production::rules::SalesOrderPassedQc;
use crate::operations::quality::dashboard::{
    self, InspectionQueue, QualityMetrics, QualityTrendDay, ScrapByReason,
};
use crate::operations::quality::defects::{self, DefectReason, DefectReasonInput};
use crate::operations::quality::inspections::{InspectionInput, QcRecorded, record};
use crate::operations::quality::photos::{self, PhotoRow};
use crate::operations::quality::plans::{
    self, CharacteristicsLoader, QualityPlan, QualityPlanInput,
};
use crate::operations::quality::policy::{self, QualityPolicy};
use crate::platform::auth::Access;
use crate::platform::db::DbPool;
use crate::platform::error::{AppError, AppResult};
use crate::platform::graphql::context::{self, data};
use crate::platform::graphql::user_error::UserError;

/// Attaches quality's DataLoaders to a request.
pub fn attach(request: async_graphql::Request, pool: &DbPool) -> async_graphql::Request {
    request.data(DataLoader::with_cache(
        CharacteristicsLoader { pool: pool.clone() },
        crate::platform::graphql::context::spawn_in_current_span,
        HashMapCache::default(),
    ))
}

/// The active defect reasons: their codes, and each whole.
#[derive(Debug, Clone, SimpleObject)]
pub struct DefectReasonList {
    /// The codes, in display order.
    pub reasons: Vec<String>,
    /// The reasons.
    pub details: Vec<DefectReason>,
}

/// An order's inspection history.
#[derive(Debug, Clone, SimpleObject)]
pub struct InspectionHistory {
    /// The order.
    pub production_order_id: i64,
    /// How many inspections.
    pub total: i64,
    /// The inspections, oldest first.
    pub inspections: Vec<InspectionRow>,
}

fn in_range(field: &str, value: i64, low: i64, high: i64) -> AppResult<i64> {
    if (low..=high).contains(&value) {
        Ok(value)
    } else {
        Err(AppError::invalid_field(
            field,
            format!("Input should be between {low} and {high}"),
        ))
    }
}

async fn user_id(ctx: &Context<'_>) -> AppResult<i64> {
    Ok(crate::platform::auth::viewer::current_user(ctx).await?.id)
}

/// Quality queries (any signed-in user).
#[derive(Default)]
pub struct QualityQuery;

#[Object]
impl QualityQuery {
    /// The company's quality policy and what it implies.
    #[graphql(guard = "Access::User")]
    async fn quality_policy(&self, ctx: &Context<'_>) -> AppResult<QualityPolicy> {
        policy::current(&mut *context::conn(ctx).await?).await
    }

    /// Defect reasons in display order: the active ones, or all.
    #[graphql(guard = "Access::User")]
    async fn defect_reasons(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Include inactive reasons.", default = false)] include_inactive: bool,
    ) -> AppResult<DefectReasonList> {
        let details = defects::list(&mut *context::conn(ctx).await?, include_inactive).await?;
        Ok(DefectReasonList {
            reasons: details.iter().map(|d| d.code.clone()).collect(),
            details,
        })
    }

    /// Quality plans by code.
    #[graphql(guard = "Access::User")]
    async fn quality_plans(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Only this product's plans.")] product_id: Option<i64>,
        #[graphql(desc = "Include inactive plans.", default = false)] include_inactive: bool,
    ) -> AppResult<Vec<QualityPlan>> {
        plans::list(
            &mut *context::conn(ctx).await?,
            product_id,
            include_inactive,
        )
        .await
    }

    /// One quality plan, active or not.
    #[graphql(guard = "Access::User")]
    async fn quality_plan(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Plan id.")] id: i64,
    ) -> AppResult<QualityPlan> {
        plans::find(&mut *context::conn(ctx).await?, id)
            .await?
            .ok_or_else(|| AppError::not_found("Quality plan not found"))
    }

    /// A product's active quality plan (null when it has none).
    #[graphql(guard = "Access::User")]
    async fn quality_plan_active(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The product.")] product_id: i64,
    ) -> AppResult<Option<QualityPlan>> {
        plans::active_for(&mut *context::conn(ctx).await?, product_id).await
    }

    /// An order's inspections, oldest first (the first is the first-pass inspection).
    #[graphql(guard = "Access::User")]
    async fn production_order_inspections(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The order.")] id: i64,
    ) -> AppResult<InspectionHistory> {
        let mut conn = context::conn(ctx).await?;
        crate::operations::production::model::by_ids(&mut conn, &[id])
            .await?
            .into_iter()
            .next()
            .ok_or_else(|| AppError::not_found("Production order not found"))?;
        let list = inspections::of_orders(&mut conn, &[id]).await?;
        Ok(InspectionHistory {
            production_order_id: id,
            total: list.len() as i64,
            inspections: list,
        })
    }

    /// The photos of an inspection, newest first (403 while quality is off).
    #[graphql(guard = "Access::User")]
    async fn qc_photos(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The inspection.")] inspection_id: i64,
    ) -> AppResult<Vec<PhotoRow>> {
        photos::list(&mut *context::conn(ctx).await?, inspection_id).await
    }

    /// One photo of an inspection.
    #[graphql(guard = "Access::User")]
    async fn qc_photo(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The inspection.")] inspection_id: i64,
        #[graphql(desc = "The photo.")] photo_id: i64,
    ) -> AppResult<PhotoRow> {
        photos::find(&mut *context::conn(ctx).await?, inspection_id, photo_id).await
    }

    /// The quality figures of the last `days` days.
    #[graphql(guard = "Access::User")]
    async fn quality_metrics(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Days back (1-365, default 30).", default = 30, directive = crate::platform::graphql::limits::range::apply(1, 365))]
        days: i64,
    ) -> AppResult<QualityMetrics> {
        let days = in_range("days", days, 1, 365)?;
        dashboard::metrics(&mut *context::conn(ctx).await?, days).await
    }

    /// Complete orders waiting for QC, by priority then due date.
    #[graphql(guard = "Access::User")]
    async fn inspection_queue(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Page size (1-200, default 50).", default = 50, directive = crate::platform::graphql::limits::range::apply(1, 200))]
        limit: i64,
        #[graphql(desc = "Rows to skip.", default = 0, directive = crate::platform::graphql::limits::range::apply(0, i64::from(i32::MAX)))]
        offset: i64,
    ) -> AppResult<InspectionQueue> {
        let limit = in_range("limit", limit, 1, 200)?;
        let offset = in_range("offset", offset, 0, i64::MAX)?;
        dashboard::queue(&mut *context::conn(ctx).await?, limit, offset).await
    }

    /// The latest QC verdicts on orders, newest first.
    #[graphql(guard = "Access::User")]
    async fn recent_inspections(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "How many (1-100, default 20).", default = 20, directive = crate::platform::graphql::limits::range::apply(1, 100))]
        limit: i64,
    ) -> AppResult<Vec<OrderRow>> {
        let limit = in_range("limit", limit, 1, 100)?;
        dashboard::recent(&mut *context::conn(ctx).await?, limit).await
    }

    /// Scrap of the last `days` days by reason, costliest first.
    #[graphql(guard = "Access::User")]
    async fn scrap_summary(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Days back (1-365, default 30).", default = 30, directive = crate::platform::graphql::limits::range::apply(1, 365))]
        days: i64,
    ) -> AppResult<Vec<ScrapByReason>> {
        let days = in_range("days", days, 1, 365)?;
        dashboard::scrap_by_reason(&mut *context::conn(ctx).await?, days).await
    }

    /// Inspections, first-pass yield and scrap cost per day of the last `days` days.
    #[graphql(guard = "Access::User")]
    async fn quality_trend(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Days back (1-365, default 30).", default = 30, directive = crate::platform::graphql::limits::range::apply(1, 365))]
        days: i64,
    ) -> AppResult<Vec<QualityTrendDay>> {
        let days = in_range("days", days, 1, 365)?;
        dashboard::trend(&mut *context::conn(ctx).await?, days).await
    }
}

/// The result of recording an inspection.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct QcPayload {
    /// What was recorded.
    pub result: Option<QcRecorded>,
    /// Rule violations (nothing was recorded).
    pub user_errors: Vec<UserError>,
}
crate::payload_from_result!(QcPayload { result: QcRecorded });

/// The result of changing a defect reason.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct DefectReasonPayload {
    /// The reason.
    pub defect_reason: Option<DefectReason>,
    /// Rule violations.
    pub user_errors: Vec<UserError>,
}
crate::payload_from_result!(DefectReasonPayload {
    defect_reason: DefectReason
});

/// The result of changing a quality plan.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct QualityPlanPayload {
    /// The plan.
    pub plan: Option<QualityPlan>,
    /// Rule violations.
    pub user_errors: Vec<UserError>,
}
crate::payload_from_result!(QualityPlanPayload { plan: QualityPlan });

/// The result of a photo change.
#[derive(Debug, Clone, SimpleObject)]
pub struct QcPhotoPayload {
    /// The photo.
    pub photo: PhotoRow,
    /// What happened.
    pub message: String,
    /// The photo's id.
    pub id: i64,
}

/// Quality mutations.
#[derive(Default)]
pub struct QualityMutation;

#[Object]
impl QualityMutation {
    /// Records an inspection of an order: the order's verdict when it is complete
    /// (`passed`, `failed`, `waived`, `conditional`; `pending` re-opens a failed one), or an
    /// in-process inspection of an operation while it runs. In `full` mode a pass is
    /// checked against the product's quality plan: refused in `block` mode, recorded with
    /// `warnings` in `warn` mode.
    #[graphql(guard = "Access::User")]
    async fn production_order_qc(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The order.")] id: i64,
        input: InspectionInput,
    ) -> AppResult<QcPayload> {
        let user = user_id(ctx).await?;
        let passed_qc = *data::<SalesOrderPassedQc>(ctx)?;
        Ok(crate::in_transaction!(ctx, |conn| record(conn, id, input, user, passed_qc)).into())
    }

    /// Adds a defect reason (admins).
    #[graphql(guard = "Access::Admin")]
    async fn defect_reason_create(
        &self,
        ctx: &Context<'_>,
        #[graphql(directive = crate::platform::graphql::limits::requires::apply(vec!["code".into(), "name".into()]))]
        input: DefectReasonInput,
    ) -> AppResult<DefectReasonPayload> {
        Ok(crate::in_transaction!(ctx, |conn| defects::save(conn, None, input)).into())
    }

    /// Changes a defect reason (admins; `active: false` deactivates it).
    #[graphql(guard = "Access::Admin")]
    async fn defect_reason_update(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Reason id.")] id: i64,
        input: DefectReasonInput,
    ) -> AppResult<DefectReasonPayload> {
        Ok(crate::in_transaction!(ctx, |conn| defects::save(conn, Some(id), input)).into())
    }

    /// Creates a quality plan with its characteristics.
    #[graphql(guard = "Access::User")]
    async fn quality_plan_create(
        &self,
        ctx: &Context<'_>,
        #[graphql(directive = crate::platform::graphql::limits::requires::apply(vec!["code".into(), "name".into()]))]
        input: QualityPlanInput,
    ) -> AppResult<QualityPlanPayload> {
        Ok(crate::in_transaction!(ctx, |conn| plans::save(conn, None, input)).into())
    }

    /// Changes a quality plan; `characteristics`, when given, replaces its characteristics.
    #[graphql(guard = "Access::User")]
    async fn quality_plan_update(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Plan id.")] id: i64,
        input: QualityPlanInput,
    ) -> AppResult<QualityPlanPayload> {
        Ok(crate::in_transaction!(ctx, |conn| plans::save(conn, Some(id), input)).into())
    }

    /// Deactivates a quality plan (inspections keep naming it; `isActive: true` brings it
    /// back).
    #[graphql(guard = "Access::User")]
    async fn quality_plan_delete(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Plan id.")] id: i64,
    ) -> AppResult<QualityPlanPayload> {
        Ok(crate::in_transaction!(ctx, |conn| plans::deactivate(conn, id)).into())
    }

    /// Adds a photo to an inspection (PNG, JPEG, WebP or GIF, at most 25 MB, the content
    /// checked).
    #[graphql(guard = "Access::User")]
    async fn qc_photo_upload(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The inspection.")] inspection_id: i64,
        #[graphql(desc = "The image.")] file: Upload,
        #[graphql(desc = "Caption (at most 255 characters).")] caption: Option<String>,
    ) -> AppResult<PhotoRow> {
        let user = user_id(ctx).await?;
        photos::upload(ctx, inspection_id, file, caption, user).await
    }

    /// Changes a photo's caption (null clears it).
    #[graphql(guard = "Access::User")]
    async fn qc_photo_update(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The inspection.")] inspection_id: i64,
        #[graphql(desc = "The photo.")] photo_id: i64,
        #[graphql(desc = "The caption.")] caption: Option<String>,
    ) -> AppResult<PhotoRow> {
        photos::set_caption(
            &mut *context::conn(ctx).await?,
            inspection_id,
            photo_id,
            caption,
        )
        .await
    }

    /// Removes a photo.
    #[graphql(guard = "Access::User")]
    async fn qc_photo_delete(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The inspection.")] inspection_id: i64,
        #[graphql(desc = "The photo.")] photo_id: i64,
    ) -> AppResult<QcPhotoPayload> {
        let photo = photos::delete(ctx, inspection_id, photo_id).await?;
        Ok(QcPhotoPayload {
            id: photo.id,
            photo,
            message: "Photo deleted".into(),
        })
    }
}
