//! Traceability in the schema: the genealogy graph (`trace`), CONTRACT 5.19's forward and
//! backward reports and recall impact (any signed-in user), and the admin lists of finished
//! units and material lots.

use async_graphql::{ComplexObject, Context, InputObject, Object, SimpleObject};

use crate::platform::graphql::scalars::Decimal;

use crate::operations::production::model::{SerialRow, SerialStatus};
use crate::operations::purchasing::model::{LotStatus, MaterialLotRow};
use crate::operations::traceability::model::{
    self, LotFilter, NodeKey, SerialFilter, TraceDirection, TraceEdge, TraceNode, TraceNodeKind,
};
use crate::operations::traceability::records::{
    self, ConsumptionRow, Profile, TraceabilityProfileCreateInput, TraceabilityProfileUpdateInput,
};
use crate::operations::traceability::report::{self, ForwardTrace, SalesOrderTrace, SerialTrace};
use crate::operations::traceability::rules::{
    self, LotConsumptionInput, MaterialLotCreateInput, MaterialLotUpdateInput,
    SerialNumberCreateInput, SerialNumberUpdateInput,
};
use crate::platform::auth::Access;
use crate::platform::auth::viewer::current_user;
use crate::platform::error::{AppError, AppResult, FieldError};
use crate::platform::graphql::context;
use crate::platform::graphql::pagination::Page;
use crate::platform::graphql::user_error::{Stop, UserError};
use diesel_async::AsyncPgConnection;

/// The most sources one recall-impact request may name.
pub const MAX_RECALL_SOURCES: usize = 500;

/// The largest page of units or lots.
pub const MAX_TRACE_PAGE: i64 = 500;

/// How many nodes of one kind a graph holds.
#[derive(Debug, Clone, SimpleObject)]
pub struct TraceKindCount {
    /// The kind.
    pub kind: TraceNodeKind,
    /// How many.
    pub count: i64,
}

/// A trace as a graph: typed nodes and typed links, for a graph or tree view.
#[derive(Debug, Clone, SimpleObject)]
pub struct TraceGraph {
    /// Where it started.
    pub start: TraceNode,
    /// Which way it walked.
    pub direction: TraceDirection,
    /// Every node reached, the start included, upstream first.
    pub nodes: Vec<TraceNode>,
    /// The links among them, written downstream.
    pub edges: Vec<TraceEdge>,
    /// Nodes per kind.
    pub counts: Vec<TraceKindCount>,
}

/// What to assess in a recall: lots and spools, by number or id (at least one, at most 500).
#[derive(Debug, Clone, Default, InputObject)]
pub struct RecallImpactInput {
    /// Material lot numbers (ignoring case).
    #[graphql(default)]
    pub lot_numbers: Vec<String>,
    /// Spool numbers (ignoring case).
    #[graphql(default)]
    pub spool_numbers: Vec<String>,
    /// Lot ids.
    #[graphql(default)]
    pub lot_ids: Vec<i64>,
    /// Spool ids.
    #[graphql(default)]
    pub spool_ids: Vec<i64>,
}

crate::connection!(
    /// A page of finished units.
    SerialConnection,
    SerialRow
);

crate::connection!(
    /// A page of material lots.
    MaterialLotConnection,
    MaterialLotRow
);

/// The node a code or a kind and id name, or a 404.
async fn start_node(
    conn: &mut diesel_async::AsyncPgConnection,
    code: Option<String>,
    kind: Option<TraceNodeKind>,
    id: Option<i64>,
) -> AppResult<NodeKey> {
    match (
        code.as_deref().map(str::trim).filter(|c| !c.is_empty()),
        kind,
        id,
    ) {
        (_, Some(kind), Some(id)) => match model::existing(conn, kind, &[id]).await?.first() {
            Some(id) => Ok(NodeKey::new(kind, *id)),
            None => Err(AppError::not_found(format!("No {kind} with id {id}"))),
        },
        (Some(code), Some(kind), None) => model::find_codes(conn, kind, &[code.to_owned()])
            .await?
            .0
            .first()
            .copied()
            .ok_or_else(|| AppError::not_found(format!("No {kind} numbered {code}"))),
        (Some(code), None, _) => model::find_code(conn, code).await?.ok_or_else(|| {
            AppError::not_found(format!(
                "No serial number, lot, spool or order numbered {code}"
            ))
        }),
        _ => Err(AppError::validation(vec![FieldError::new(
            "code",
            "Give a serial, lot, spool or order number, or a kind and an id",
        )])),
    }
}

/// Traceability queries.
#[derive(Default)]
pub struct TraceabilityQuery;

#[Object]
impl TraceabilityQuery {
    /// The genealogy of a record as a graph, forward (where it went: production orders,
    /// units, sales orders, customers) or backward (what it came from: spools, lots,
    /// purchase orders, vendors). Name the start by `code` (a serial, lot, spool, work,
    /// sales or purchase order number) or by `kind` and `id`. Any depth, one recursive query.
    #[graphql(guard = "Access::User")]
    async fn trace(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "A serial, lot, spool, work, sales or purchase order number.")]
        code: Option<String>,
        #[graphql(desc = "The start's kind (with `id`, or to read `code` as that kind).")]
        kind: Option<TraceNodeKind>,
        #[graphql(desc = "The start's id (with `kind`).")] id: Option<i64>,
        #[graphql(desc = "Which way to walk.", default)] direction: TraceDirection,
    ) -> AppResult<TraceGraph> {
        let mut conn = context::conn(ctx).await?;
        let start = start_node(&mut conn, code, kind, id).await?;
        let graph = model::walk(&mut conn, &[start], direction).await?;
        let mut counts: Vec<TraceKindCount> = Vec::new();
        for n in &graph.nodes {
            match counts.iter_mut().find(|c| c.kind == n.kind) {
                Some(c) => c.count += 1,
                None => counts.push(TraceKindCount {
                    kind: n.kind,
                    count: 1,
                }),
            }
        }
        let start = graph
            .nodes
            .iter()
            .find(|n| n.node_key() == start)
            .cloned()
            .ok_or_else(|| AppError::internal("the walk lost its start"))?;
        Ok(TraceGraph {
            start,
            direction,
            nodes: graph.nodes,
            edges: graph.edges,
            counts,
        })
    }

    /// Everything downstream of a finished unit's serial number, a material lot number or a
    /// spool number (tried in that order; also a work order number): production orders,
    /// units, sales orders and customers (spec `GET /traceability/forward/:serial`).
    #[graphql(guard = "Access::User")]
    async fn trace_forward(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "A serial, lot or spool number.")] code: String,
    ) -> AppResult<ForwardTrace> {
        let mut conn = context::conn(ctx).await?;
        let start = start_node(&mut conn, Some(code), None, None).await?;
        report::forward(&mut conn, &[start], Vec::new()).await
    }

    /// Everything downstream of a spool (CONTRACT 5.19 `forward/spool/{id}`): the spool,
    /// where it was bought, each production order that used it with the grams, its sales
    /// order and units, and the affected customers.
    #[graphql(guard = "Access::User")]
    async fn trace_forward_spool(&self, ctx: &Context<'_>, id: i64) -> AppResult<ForwardTrace> {
        let mut conn = context::conn(ctx).await?;
        let start = start_node(&mut conn, None, Some(TraceNodeKind::Spool), Some(id))
            .await
            .map_err(|_| AppError::not_found("Spool not found"))?;
        report::forward(&mut conn, &[start], Vec::new()).await
    }

    /// Everything downstream of a material lot (the admin recall view).
    #[graphql(guard = "Access::Admin")]
    async fn trace_forward_lot(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The lot number (ignoring case).")] lot_number: String,
    ) -> AppResult<ForwardTrace> {
        let mut conn = context::conn(ctx).await?;
        let start = model::find_codes(
            &mut conn,
            TraceNodeKind::MaterialLot,
            std::slice::from_ref(&lot_number),
        )
        .await?
        .0
        .first()
        .copied()
        .ok_or_else(|| AppError::not_found(format!("Lot {lot_number} not found")))?;
        report::forward(&mut conn, &[start], Vec::new()).await
    }

    /// Everything upstream of a finished unit (CONTRACT 5.19 `backward/serial/{sn}`): its
    /// product, production order, the spools it was made from with their lots, purchase
    /// orders and vendors, and the sales order it went out on.
    #[graphql(guard = "Access::User")]
    async fn trace_backward_serial(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The serial number (ignoring case).")] serial_number: String,
    ) -> AppResult<SerialTrace> {
        report::backward_serial(&mut *context::conn(ctx).await?, &serial_number).await
    }

    /// Everything upstream of a sales order: its production orders and units, and the
    /// spools, lots, purchase orders and vendors of their material.
    #[graphql(guard = "Access::User")]
    async fn trace_backward_sales_order(
        &self,
        ctx: &Context<'_>,
        id: i64,
    ) -> AppResult<SalesOrderTrace> {
        report::backward_sales_order(&mut *context::conn(ctx).await?, id).await
    }

    /// The spools a production order consumed, with the grams, each spool's lot, purchase
    /// order and vendor (CONTRACT 5.19 consumptions; the spools area's traceability view;
    /// admins).
    #[graphql(guard = "Access::Admin")]
    async fn production_order_lineage(
        &self,
        ctx: &Context<'_>,
        id: i64,
    ) -> AppResult<Vec<report::LineageEntry>> {
        report::production_order_lineage(&mut *context::conn(ctx).await?, id).await
    }

    /// Recall impact: what a set of suspect lots and spools reached: production orders,
    /// units (shipped and still here), sales orders and customers, with counts. Numbers that
    /// name nothing are listed in `notFound`; a 404 when none names anything.
    #[graphql(guard = "Access::User")]
    async fn recall_impact(
        &self,
        ctx: &Context<'_>,
        input: RecallImpactInput,
    ) -> AppResult<ForwardTrace> {
        let asked = input.lot_numbers.len()
            + input.spool_numbers.len()
            + input.lot_ids.len()
            + input.spool_ids.len();
        if asked == 0 {
            return Err(AppError::validation(vec![FieldError::new(
                "lotNumbers",
                "Name at least one lot or spool (lot_numbers, spool_numbers, lot_ids or spool_ids)",
            )]));
        }
        if asked > MAX_RECALL_SOURCES {
            return Err(AppError::validation(vec![FieldError::new(
                "lotNumbers",
                format!("At most {MAX_RECALL_SOURCES} lots and spools at once"),
            )]));
        }
        let mut conn = context::conn(ctx).await?;
        let mut sources = Vec::new();
        let mut not_found = Vec::new();
        for (kind, codes) in [
            (TraceNodeKind::MaterialLot, &input.lot_numbers),
            (TraceNodeKind::Spool, &input.spool_numbers),
        ] {
            if codes.is_empty() {
                continue;
            }
            let (found, missing) = model::find_codes(&mut conn, kind, codes).await?;
            sources.extend(found);
            not_found.extend(missing);
        }
        for (kind, ids) in [
            (TraceNodeKind::MaterialLot, &input.lot_ids),
            (TraceNodeKind::Spool, &input.spool_ids),
        ] {
            if ids.is_empty() {
                continue;
            }
            let found = model::existing(&mut conn, kind, ids).await?;
            not_found.extend(
                ids.iter()
                    .filter(|i| !found.contains(i))
                    .map(|i| format!("{kind}:{i}")),
            );
            sources.extend(found.into_iter().map(|id| NodeKey::new(kind, id)));
        }
        sources.sort();
        sources.dedup();
        if sources.is_empty() {
            return Err(AppError::not_found("None of those lots or spools exist"));
        }
        report::forward(&mut conn, &sources, not_found).await
    }

    /// Finished units, newest first (admins).
    #[allow(clippy::too_many_arguments)]
    #[graphql(guard = "Access::Admin")]
    async fn serial_numbers(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Part of the serial number, tracking number or product SKU.")]
        search: Option<String>,
        #[graphql(desc = "Only this status.")] status: Option<SerialStatus>,
        #[graphql(desc = "Only this product.")] product_id: Option<i64>,
        #[graphql(desc = "Only units of this production order.")] production_order_id: Option<i64>,
        #[graphql(desc = "Only units of this sales order.")] sales_order_id: Option<i64>,
        #[graphql(desc = "Page size (1-500, default 100).", default = 100, directive = crate::platform::graphql::limits::range::apply(1, 500))]
        first: i64,
        #[graphql(desc = "Rows to skip.", default = 0, directive = crate::platform::graphql::limits::range::apply(0, i64::from(i32::MAX)))]
        offset: i64,
    ) -> AppResult<SerialConnection> {
        let page = Page::with_max(Some(first), Some(offset), MAX_TRACE_PAGE)?;
        let filter = SerialFilter {
            search,
            status,
            product_id,
            production_order_id,
            sales_order_id,
        };
        let (nodes, total) = model::serials(
            &mut *context::conn(ctx).await?,
            &filter,
            page.limit,
            page.offset,
        )
        .await?;
        Ok(SerialConnection {
            total_count: total,
            nodes: nodes.into(),
            page_info: page.info(total),
        })
    }

    /// One finished unit by id (admins).
    #[graphql(guard = "Access::Admin")]
    async fn serial_number(&self, ctx: &Context<'_>, id: i64) -> AppResult<SerialRow> {
        crate::operations::production::model::serials_by_ids(&mut *context::conn(ctx).await?, &[id])
            .await?
            .into_iter()
            .next()
            .ok_or_else(|| AppError::not_found("Serial number not found"))
    }

    /// One finished unit by its serial number, ignoring case (admins).
    #[graphql(guard = "Access::Admin")]
    async fn serial_number_lookup(
        &self,
        ctx: &Context<'_>,
        serial_number: String,
    ) -> AppResult<SerialRow> {
        let mut conn = context::conn(ctx).await?;
        let (found, _) = model::find_codes(
            &mut conn,
            TraceNodeKind::SerialNumber,
            std::slice::from_ref(&serial_number),
        )
        .await?;
        let id = found.first().map(|k| k.id).ok_or_else(|| {
            AppError::not_found(format!("Serial number {serial_number} not found"))
        })?;
        crate::operations::production::model::serials_by_ids(&mut conn, &[id])
            .await?
            .into_iter()
            .next()
            .ok_or_else(|| AppError::not_found(format!("Serial number {serial_number} not found")))
    }

    /// Material lots, newest first (admins).
    #[allow(clippy::too_many_arguments)]
    #[graphql(guard = "Access::Admin")]
    async fn material_lots(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Part of the lot number or the vendor's lot number.")] search: Option<
            String,
        >,
        #[graphql(desc = "Only this status.")] status: Option<LotStatus>,
        #[graphql(desc = "Only lots of this item.")] product_id: Option<i64>,
        #[graphql(desc = "Only lots of this vendor.")] vendor_id: Option<i64>,
        #[graphql(desc = "Page size (1-500, default 100).", default = 100, directive = crate::platform::graphql::limits::range::apply(1, 500))]
        first: i64,
        #[graphql(desc = "Rows to skip.", default = 0, directive = crate::platform::graphql::limits::range::apply(0, i64::from(i32::MAX)))]
        offset: i64,
    ) -> AppResult<MaterialLotConnection> {
        let page = Page::with_max(Some(first), Some(offset), MAX_TRACE_PAGE)?;
        let filter = LotFilter {
            search,
            status,
            product_id,
            vendor_id,
        };
        let (nodes, total) = model::lots(
            &mut *context::conn(ctx).await?,
            &filter,
            page.limit,
            page.offset,
        )
        .await?;
        Ok(MaterialLotConnection {
            total_count: total,
            nodes: nodes.into(),
            page_info: page.info(total),
        })
    }

    /// One material lot by id (admins).
    #[graphql(guard = "Access::Admin")]
    async fn material_lot(&self, ctx: &Context<'_>, id: i64) -> AppResult<MaterialLotRow> {
        crate::operations::purchasing::model::lots_by_ids(&mut *context::conn(ctx).await?, &[id])
            .await?
            .into_iter()
            .next()
            .ok_or_else(|| AppError::not_found("Lot not found"))
    }

    /// Every customer's traceability profile, by customer name (admins).
    #[graphql(guard = "Access::Admin")]
    async fn traceability_profiles(&self, ctx: &Context<'_>) -> AppResult<Vec<Profile>> {
        records::all_profiles(&mut *context::conn(ctx).await?).await
    }

    /// One customer's traceability profile (admins; 404 when the customer has none).
    #[graphql(guard = "Access::Admin")]
    async fn traceability_profile(
        &self,
        ctx: &Context<'_>,
        customer_id: i64,
    ) -> AppResult<Profile> {
        records::profile_of(&mut *context::conn(ctx).await?, customer_id).await
    }
}

/// The result of numbering new units.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct SerialNumbersPayload {
    /// The new units, in number order.
    pub serial_numbers: Vec<SerialRow>,
    /// Why nothing was numbered.
    pub user_errors: Vec<UserError>,
}

/// The result of a change to a unit.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct SerialNumberPayload {
    /// The unit after the change.
    pub serial_number: Option<SerialRow>,
    /// Why nothing changed.
    pub user_errors: Vec<UserError>,
}

/// The result of recording or changing a lot.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct MaterialLotPayload {
    /// The lot after the change.
    pub material_lot: Option<MaterialLotRow>,
    /// Why nothing changed.
    pub user_errors: Vec<UserError>,
}

/// A lot number handed out.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct LotNumberPayload {
    /// The number, `{MATERIALCODE}-{YYYY}-{NNNN}`.
    pub lot_number: Option<String>,
    /// Why none was handed out.
    pub user_errors: Vec<UserError>,
}

/// The result of recording a lot consumption.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct LotConsumptionPayload {
    /// The consumption.
    pub consumption: Option<ConsumptionRow>,
    /// Why nothing was recorded.
    pub user_errors: Vec<UserError>,
}

/// The result of a change to a traceability profile.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct TraceabilityProfilePayload {
    /// The profile after the change.
    pub profile: Option<Profile>,
    /// Why nothing changed.
    pub user_errors: Vec<UserError>,
}

crate::payload_from_result!(SerialNumberPayload {
    serial_number: SerialRow
});
crate::payload_from_result!(MaterialLotPayload {
    material_lot: MaterialLotRow
});
crate::payload_from_result!(LotNumberPayload { lot_number: String });
crate::payload_from_result!(LotConsumptionPayload {
    consumption: ConsumptionRow
});
crate::payload_from_result!(TraceabilityProfilePayload { profile: Profile });

async fn serial(conn: &mut AsyncPgConnection, id: i64) -> Result<SerialRow, Stop> {
    crate::operations::production::model::serials_by_ids(conn, &[id])
        .await?
        .into_iter()
        .next()
        .ok_or_else(|| Stop::Failed(AppError::not_found("Serial number not found")))
}

async fn lot(conn: &mut AsyncPgConnection, id: i64) -> Result<MaterialLotRow, Stop> {
    crate::operations::purchasing::model::lots_by_ids(conn, &[id])
        .await?
        .into_iter()
        .next()
        .ok_or_else(|| Stop::Failed(AppError::not_found("Lot not found")))
}

async fn item_facts(
    ctx: &Context<'_>,
    id: i64,
) -> AppResult<Option<crate::ledgers::inventory::model::ItemFacts>> {
    ctx.data::<crate::ledgers::inventory::loaders::ItemFactsOf>()
        .map_err(|e| AppError::internal(e.message))?
        .load_one(id)
        .await
}

#[ComplexObject]
impl SerialRow {
    /// The product's SKU.
    async fn product_sku(&self, ctx: &Context<'_>) -> AppResult<Option<String>> {
        Ok(item_facts(ctx, self.product_id).await?.map(|f| f.sku))
    }

    /// The product's name.
    async fn product_name(&self, ctx: &Context<'_>) -> AppResult<Option<String>> {
        Ok(item_facts(ctx, self.product_id).await?.map(|f| f.name))
    }
}

#[ComplexObject]
impl MaterialLotRow {
    /// The item's SKU.
    async fn product_sku(&self, ctx: &Context<'_>) -> AppResult<Option<String>> {
        Ok(item_facts(ctx, self.product_id).await?.map(|f| f.sku))
    }

    /// The item's name.
    async fn product_name(&self, ctx: &Context<'_>) -> AppResult<Option<String>> {
        Ok(item_facts(ctx, self.product_id).await?.map(|f| f.name))
    }

    /// What is left: received - consumed - scrapped + adjusted (CONTRACT 6.7).
    async fn quantity_remaining(&self) -> Decimal {
        Decimal(
            &self.quantity_received.0 - &self.quantity_consumed.0 - &self.quantity_scrapped.0
                + &self.quantity_adjusted.0,
        )
    }
}

/// The records of traceability an admin keeps by hand (CONTRACT 5.19).
#[derive(Default)]
pub struct TraceabilityMutation;

#[Object]
impl TraceabilityMutation {
    /// Numbers new finished units of a serial-tracked product, made by a production order or
    /// outside one (1-1000 at a time).
    #[graphql(guard = "Access::Admin")]
    async fn serial_number_create(
        &self,
        ctx: &Context<'_>,
        input: SerialNumberCreateInput,
    ) -> AppResult<SerialNumbersPayload> {
        let created = crate::in_transaction!(ctx, |conn| async move {
            let ids = rules::create_serials(conn, &input).await?;
            Ok::<_, Stop>(crate::operations::production::model::serials_by_ids(conn, &ids).await?)
        });
        Ok(match created {
            Ok(serial_numbers) => SerialNumbersPayload {
                serial_numbers,
                user_errors: Vec::new(),
            },
            Err(user_errors) => SerialNumbersPayload {
                serial_numbers: Vec::new(),
                user_errors,
            },
        })
    }

    /// Changes a finished unit: its status (by the moves a person makes: put away, scrap,
    /// return, restock), QC decision, tracking number or return reason.
    #[graphql(guard = "Access::Admin")]
    async fn serial_number_update(
        &self,
        ctx: &Context<'_>,
        id: i64,
        input: SerialNumberUpdateInput,
    ) -> AppResult<SerialNumberPayload> {
        Ok(crate::in_transaction!(ctx, |conn| async move {
            rules::update_serial(conn, id, input).await?;
            serial(conn, id).await
        })
        .into())
    }

    /// Records a material lot by hand (it posts no stock).
    #[graphql(guard = "Access::Admin")]
    async fn material_lot_create(
        &self,
        ctx: &Context<'_>,
        input: MaterialLotCreateInput,
    ) -> AppResult<MaterialLotPayload> {
        let user = current_user(ctx).await?.id;
        Ok(crate::in_transaction!(ctx, |conn| async move {
            let id = rules::create_lot(conn, input, user).await?;
            lot(conn, id).await
        })
        .into())
    }

    /// Changes a lot's status, inspection, expiry, vendor lot number, location or notes.
    #[graphql(guard = "Access::Admin")]
    async fn material_lot_update(
        &self,
        ctx: &Context<'_>,
        id: i64,
        input: MaterialLotUpdateInput,
    ) -> AppResult<MaterialLotPayload> {
        Ok(crate::in_transaction!(ctx, |conn| async move {
            rules::update_lot(conn, id, input).await?;
            lot(conn, id).await
        })
        .into())
    }

    /// Hands out the next lot number of an item (each call a new one).
    #[graphql(guard = "Access::Admin")]
    async fn material_lot_number_generate(
        &self,
        ctx: &Context<'_>,
        product_id: i64,
    ) -> AppResult<LotNumberPayload> {
        Ok(crate::in_transaction!(ctx, |conn| rules::generate_lot_number(conn, product_id)).into())
    }

    /// Records material a production order drew from a lot (and the unit it went into), so
    /// traces and recalls reach that order.
    #[graphql(guard = "Access::Admin")]
    async fn lot_consumption_record(
        &self,
        ctx: &Context<'_>,
        input: LotConsumptionInput,
    ) -> AppResult<LotConsumptionPayload> {
        let user = current_user(ctx).await?.id;
        Ok(crate::in_transaction!(ctx, |conn| rules::record_consumption(conn, input, user)).into())
    }

    /// Gives a customer a traceability profile (one each).
    #[graphql(guard = "Access::Admin")]
    async fn traceability_profile_create(
        &self,
        ctx: &Context<'_>,
        input: TraceabilityProfileCreateInput,
    ) -> AppResult<TraceabilityProfilePayload> {
        Ok(
            crate::in_transaction!(ctx, |conn| rules::save_profile(conn, None, input.into()))
                .into(),
        )
    }

    /// Changes a customer's traceability profile.
    #[graphql(guard = "Access::Admin")]
    async fn traceability_profile_update(
        &self,
        ctx: &Context<'_>,
        customer_id: i64,
        input: TraceabilityProfileUpdateInput,
    ) -> AppResult<TraceabilityProfilePayload> {
        Ok(crate::in_transaction!(ctx, |conn| rules::save_profile(
            conn,
            Some(customer_id),
            input.into()
        ))
        .into())
    }
}
