//! Printers in the schema (any signed-in user): the print farm's machines, their status and
//! how to reach them. The object is the row ([`PrinterRow`]); this file adds its computed
//! fields and the resolvers.

use async_graphql::{ComplexObject, Context, Object, SimpleObject};

use crate::operations::printers::model::{
    self, PrinterBrand, PrinterCreateInput, PrinterFilter, PrinterForm, PrinterRow, PrinterSort,
    PrinterStatus, PrinterUpdateInput,
};
use crate::operations::printers::rules;
use crate::platform::auth::Access;
use crate::platform::db::paging::SortOrder;
use crate::platform::error::{AppError, AppResult, FieldError};
use crate::platform::graphql::context;
use crate::platform::graphql::pagination::{DEFAULT_PAGE_SIZE, Page, PageInfo};
use crate::platform::graphql::user_error::UserError;

/// The largest page of printers (CONTRACT 5.13: `page_size` up to 200).
pub const MAX_PRINTER_PAGE: i64 = 200;

#[ComplexObject]
impl PrinterRow {
    /// True unless the status is offline.
    async fn is_online(&self) -> bool {
        rules::is_online(self.status)
    }

    /// Whether the capabilities list an automatic material system (`has_ams`, `ams`,
    /// `ams_slots` or `ams_units`).
    async fn has_ams(&self) -> bool {
        rules::has_ams(&self.capabilities)
    }

    /// The spools consumed by the production orders that ran an operation on it, each once
    /// (consumption is recorded per order; the data model has no "spool loaded on a printer"
    /// relation).
    async fn spools(
        &self,
        ctx: &Context<'_>,
    ) -> AppResult<Vec<crate::ledgers::spools::model::SpoolRow>> {
        Ok(ctx
            .data::<crate::ledgers::spools::loaders::PrinterSpools>()
            .map_err(|e| AppError::internal(e.message))?
            .load_one(self.id)
            .await?
            .unwrap_or_default()
            .into_iter()
            .map(|p| p.spool)
            .collect())
    }

    /// Whether the capabilities list a camera (`has_camera` or `camera`).
    async fn has_camera(&self) -> bool {
        rules::has_camera(&self.capabilities)
    }

    /// How to reach it (a JSON object: access codes, API keys, ports...). These are secrets:
    /// admins read them; for anyone else the field is null (operators may still set them).
    async fn connection_config(
        &self,
        ctx: &Context<'_>,
    ) -> AppResult<Option<async_graphql::Json<serde_json::Value>>> {
        let viewer = crate::platform::auth::viewer::viewer(ctx).await?;
        Ok(Access::Admin
            .allows(&viewer)
            .is_ok()
            .then(|| async_graphql::Json(self.connection_config.clone())))
    }
}

/// A page of printers, with page-number fields for page-based screens.
#[derive(Debug, Clone, SimpleObject)]
pub struct PrinterConnection {
    /// How many printers match, over all pages.
    pub total_count: i64,
    /// The printers of this page.
    pub nodes: Vec<PrinterRow>,
    /// Where this page sits.
    pub page_info: PageInfo,
    /// The page number (1-based).
    pub page: i64,
    /// The page size.
    pub page_size: i64,
    /// How many pages there are (at least 1).
    pub total_pages: i64,
}

/// A suggested printer code.
#[derive(Debug, Clone, SimpleObject)]
pub struct PrinterCodeSuggestion {
    /// The next free code after the highest one with this prefix, e.g. `PRT-004`.
    pub code: String,
    /// The prefix used.
    pub prefix: String,
}

/// The page asked for by page number (`page`, 1-based) or by `offset`, not both; at most
/// [`MAX_PRINTER_PAGE`] rows.
fn page_of(page: Option<i64>, first: Option<i64>, offset: Option<i64>) -> AppResult<Page> {
    let offset = match (page, offset) {
        (Some(_), Some(_)) => {
            return Err(AppError::validation(vec![FieldError::new(
                "page",
                "Give either page or offset, not both",
            )]));
        }
        (Some(p), None) if p < 1 => {
            return Err(AppError::validation(vec![
                FieldError::new("page", "Input should be greater than or equal to 1")
                    .with_kind("greater_than_equal"),
            ]));
        }
        (Some(p), None) => Some((p - 1).saturating_mul(first.unwrap_or(DEFAULT_PAGE_SIZE))),
        (None, o) => o,
    };
    Page::with_max(first, offset, MAX_PRINTER_PAGE)
}

/// Printer queries (any signed-in user).
#[derive(Default)]
pub struct PrintersQuery;

#[Object]
impl PrintersQuery {
    /// Printers (by code unless `sortBy` says otherwise), with search and filters.
    #[allow(clippy::too_many_arguments)]
    #[graphql(guard = "Access::User")]
    async fn printers(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Page size (1-200, default 50).", directive = crate::platform::graphql::limits::range::apply(1, 200))]
        first: Option<i64>,
        #[graphql(desc = "Rows to skip (not with `page`).", directive = crate::platform::graphql::limits::range::apply(0, i64::from(i32::MAX)))]
        offset: Option<i64>,
        #[graphql(desc = "Page number, 1-based (instead of `offset`).")] page: Option<i64>,
        #[graphql(
            desc = "Code, name, model, serial number, address or location contains this (case-insensitive)."
        )]
        search: Option<String>,
        #[graphql(desc = "Only this brand.")] brand: Option<PrinterBrand>,
        #[graphql(desc = "Only this status.")] status: Option<PrinterStatus>,
        #[graphql(
            desc = "Only active printers (default); false lists every printer.",
            default = true
        )]
        active_only: bool,
        #[graphql(desc = "Sort column (default code); ties are broken by id.")] sort_by: Option<
            PrinterSort,
        >,
        #[graphql(desc = "Sort direction (default asc).")] sort_order: Option<SortOrder>,
    ) -> AppResult<PrinterConnection> {
        let page_req = page_of(page, first, offset)?;
        let filter = PrinterFilter {
            search,
            brand,
            status,
            active_only,
            sort_by,
            sort_order,
        };
        let (nodes, total) = model::list(
            &mut *context::conn(ctx).await?,
            &filter,
            page_req.limit,
            page_req.offset,
        )
        .await?;
        Ok(PrinterConnection {
            total_count: total,
            nodes,
            page_info: page_req.info(total),
            page: page_req.offset / page_req.limit + 1,
            page_size: page_req.limit,
            total_pages: ((total + page_req.limit - 1) / page_req.limit).max(1),
        })
    }

    /// One printer by id.
    #[graphql(guard = "Access::User")]
    async fn printer(&self, ctx: &Context<'_>, id: i64) -> AppResult<PrinterRow> {
        model::find(&mut *context::conn(ctx).await?, id).await
    }

    /// The next free printer code for a prefix (`PRT` when none): a suggestion, nothing is
    /// reserved.
    #[graphql(guard = "Access::User")]
    async fn printer_code_suggestion(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Letters, digits, dashes or underscores (default PRT).")] prefix: Option<
            String,
        >,
    ) -> AppResult<PrinterCodeSuggestion> {
        let prefix = rules::normalize_prefix(prefix.as_deref())
            .map_err(|e| AppError::validation(vec![FieldError::new("prefix", e.message)]))?;
        let code = rules::suggest_code(&mut *context::conn(ctx).await?, &prefix).await?;
        Ok(PrinterCodeSuggestion { code, prefix })
    }
}

/// The result of a printer change.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct PrinterPayload {
    /// The printer after the change.
    pub printer: Option<PrinterRow>,
    /// What happened (delete).
    pub message: Option<String>,
    /// Rule violations (nothing was changed when present).
    pub user_errors: Vec<UserError>,
}

impl From<Result<PrinterRow, Vec<UserError>>> for PrinterPayload {
    fn from(result: Result<PrinterRow, Vec<UserError>>) -> Self {
        match result {
            Ok(row) => PrinterPayload {
                printer: Some(row),
                ..Default::default()
            },
            Err(user_errors) => PrinterPayload {
                user_errors,
                ..Default::default()
            },
        }
    }
}

/// Printer mutations (any signed-in user).
#[derive(Default)]
pub struct PrintersMutation;

#[Object]
impl PrintersMutation {
    /// Adds a printer.
    #[graphql(guard = "Access::User")]
    async fn printer_create(
        &self,
        ctx: &Context<'_>,
        input: PrinterCreateInput,
    ) -> AppResult<PrinterPayload> {
        let mut conn = context::conn(ctx).await?;
        Ok(rules::save(&mut conn, None, input.into()).await?.into())
    }

    /// Changes a printer.
    #[graphql(guard = "Access::User")]
    async fn printer_update(
        &self,
        ctx: &Context<'_>,
        id: i64,
        input: PrinterUpdateInput,
    ) -> AppResult<PrinterPayload> {
        let mut conn = context::conn(ctx).await?;
        Ok(rules::save(&mut conn, Some(id), input.into()).await?.into())
    }

    /// Sets what a printer is doing (any status but offline also marks it as just seen).
    #[graphql(guard = "Access::User")]
    async fn printer_update_status(
        &self,
        ctx: &Context<'_>,
        id: i64,
        status: PrinterStatus,
    ) -> AppResult<PrinterPayload> {
        let mut conn = context::conn(ctx).await?;
        let form = PrinterForm {
            status: Some(status),
            ..Default::default()
        };
        Ok(rules::save(&mut conn, Some(id), form).await?.into())
    }

    /// Deletes (deactivates) a printer; its history stays.
    #[graphql(guard = "Access::User")]
    async fn printer_delete(&self, ctx: &Context<'_>, id: i64) -> AppResult<PrinterPayload> {
        let mut conn = context::conn(ctx).await?;
        let form = PrinterForm {
            active: Some(false),
            ..Default::default()
        };
        let mut payload = PrinterPayload::from(rules::save(&mut conn, Some(id), form).await?);
        payload.message = payload
            .printer
            .as_ref()
            .map(|p| format!("Printer '{}' deactivated", p.code));
        Ok(payload)
    }
}

pub use super::brands::PrinterBrandsQuery;

// ------------------------------------------------------------------ maintenance logs

use crate::operations::printers::maintenance::{
    self as logs, MaintenanceFilter, MaintenanceLogRow, MaintenanceType,
    PrinterMaintenanceCreateInput, PrinterMaintenanceUpdateInput,
};

#[ComplexObject]
impl MaintenanceLogRow {
    /// The printer's code.
    async fn printer_code(&self, ctx: &Context<'_>) -> AppResult<Option<String>> {
        Ok(log_printer(ctx, self.printer_id).await?.map(|p| p.code))
    }

    /// The printer's name.
    async fn printer_name(&self, ctx: &Context<'_>) -> AppResult<Option<String>> {
        Ok(log_printer(ctx, self.printer_id).await?.map(|p| p.name))
    }
}

/// A log's printer, through the per-request printers loader (one statement per page).
async fn log_printer(ctx: &Context<'_>, id: i64) -> AppResult<Option<PrinterRow>> {
    ctx.data::<crate::operations::printers::loaders::Printers>()
        .map_err(|e| AppError::internal(e.message))?
        .load_one(id)
        .await
}

/// A page of maintenance logs, newest first, with page-number fields.
#[derive(Debug, Clone, SimpleObject)]
pub struct PrinterMaintenanceConnection {
    /// How many logs match, over all pages.
    pub total_count: i64,
    /// The logs of this page.
    pub nodes: Vec<MaintenanceLogRow>,
    /// Where this page sits.
    pub page_info: PageInfo,
    /// The page number (1-based).
    pub page: i64,
    /// The page size.
    pub page_size: i64,
    /// How many pages there are (at least 1).
    pub total_pages: i64,
}

/// The printers whose maintenance is due.
#[derive(Debug, Clone, SimpleObject)]
pub struct PrinterMaintenanceDueReport {
    /// Active printers whose latest log's next due time has passed or falls within
    /// `daysAhead` days, the most overdue first.
    pub printers: Vec<rules::MaintenanceDue>,
    /// How many of them are overdue.
    pub total_overdue: i64,
    /// How many are due within the look-ahead but not yet overdue.
    pub total_due_soon: i64,
    /// The look-ahead used, in days.
    pub days_ahead: i64,
}

async fn maintenance_page(
    ctx: &Context<'_>,
    filter: MaintenanceFilter,
    page: Option<i64>,
    first: Option<i64>,
    offset: Option<i64>,
) -> AppResult<PrinterMaintenanceConnection> {
    let page_req = page_of(page, first, offset)?;
    let (nodes, total) = logs::list(
        &mut *context::conn(ctx).await?,
        &filter,
        page_req.limit,
        page_req.offset,
    )
    .await?;
    Ok(PrinterMaintenanceConnection {
        total_count: total,
        nodes,
        page_info: page_req.info(total),
        page: page_req.offset / page_req.limit + 1,
        page_size: page_req.limit,
        total_pages: ((total + page_req.limit - 1) / page_req.limit).max(1),
    })
}

/// Maintenance log queries (any signed-in user).
#[derive(Default)]
pub struct PrinterMaintenanceQuery;

#[Object]
impl PrinterMaintenanceQuery {
    /// Maintenance logs of every printer, newest first, with filters.
    #[allow(clippy::too_many_arguments)]
    #[graphql(guard = "Access::User")]
    async fn printer_maintenance_logs(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Page size (1-200, default 50).", directive = crate::platform::graphql::limits::range::apply(1, 200))]
        first: Option<i64>,
        #[graphql(desc = "Rows to skip (not with `page`).", directive = crate::platform::graphql::limits::range::apply(0, i64::from(i32::MAX)))]
        offset: Option<i64>,
        #[graphql(desc = "Page number, 1-based (instead of `offset`).")] page: Option<i64>,
        #[graphql(desc = "Only this printer's logs.")] printer_id: Option<i64>,
        #[graphql(desc = "Only this kind of maintenance.")] maintenance_type: Option<
            MaintenanceType,
        >,
        #[graphql(desc = "Performed on or after this day (UTC).")] start_date: Option<
            chrono::NaiveDate,
        >,
        #[graphql(desc = "Performed on or before this day (UTC).")] end_date: Option<
            chrono::NaiveDate,
        >,
    ) -> AppResult<PrinterMaintenanceConnection> {
        if let (Some(s), Some(e)) = (start_date, end_date)
            && e < s
        {
            return Err(AppError::validation(vec![FieldError::new(
                "endDate",
                "The end date must not be before the start date",
            )]));
        }
        let filter = MaintenanceFilter {
            printer_id,
            maintenance_type,
            start_date,
            end_date,
        };
        maintenance_page(ctx, filter, page, first, offset).await
    }

    /// One printer's maintenance history, newest first (`Printer not found` when there is
    /// no such printer).
    #[graphql(guard = "Access::User")]
    async fn printer_maintenance_history(
        &self,
        ctx: &Context<'_>,
        printer_id: i64,
        #[graphql(desc = "Page size (1-200, default 50).", directive = crate::platform::graphql::limits::range::apply(1, 200))]
        first: Option<i64>,
        #[graphql(desc = "Rows to skip (not with `page`).", directive = crate::platform::graphql::limits::range::apply(0, i64::from(i32::MAX)))]
        offset: Option<i64>,
        #[graphql(desc = "Page number, 1-based (instead of `offset`).")] page: Option<i64>,
    ) -> AppResult<PrinterMaintenanceConnection> {
        model::find(&mut *context::conn(ctx).await?, printer_id).await?;
        let filter = MaintenanceFilter {
            printer_id: Some(printer_id),
            ..Default::default()
        };
        maintenance_page(ctx, filter, page, first, offset).await
    }

    /// One maintenance log by id.
    #[graphql(guard = "Access::User")]
    async fn printer_maintenance_log(
        &self,
        ctx: &Context<'_>,
        id: i64,
    ) -> AppResult<MaintenanceLogRow> {
        logs::find(&mut *context::conn(ctx).await?, id).await
    }

    /// Active printers whose maintenance is due: their latest log's next due time has passed
    /// or falls within `daysAhead` days.
    #[graphql(guard = "Access::User")]
    async fn printer_maintenance_due(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Look this many days ahead (0-365, default 7).")] days_ahead: Option<i64>,
    ) -> AppResult<PrinterMaintenanceDueReport> {
        let days_ahead = rules::days_ahead(days_ahead)
            .map_err(|e| AppError::validation(vec![e.to_field_error()]))?;
        let latest = logs::latest_per_printer(&mut *context::conn(ctx).await?).await?;
        let printers = rules::due(latest, chrono::Utc::now(), days_ahead);
        let total_overdue = printers.iter().filter(|p| p.overdue).count() as i64;
        Ok(PrinterMaintenanceDueReport {
            total_due_soon: printers.len() as i64 - total_overdue,
            total_overdue,
            printers,
            days_ahead,
        })
    }
}

/// The result of a maintenance log change.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct PrinterMaintenancePayload {
    /// The log after the change.
    pub maintenance_log: Option<MaintenanceLogRow>,
    /// What happened (delete).
    pub message: Option<String>,
    /// Rule violations (nothing was changed when present).
    pub user_errors: Vec<UserError>,
}

impl From<Result<MaintenanceLogRow, Vec<UserError>>> for PrinterMaintenancePayload {
    fn from(result: Result<MaintenanceLogRow, Vec<UserError>>) -> Self {
        match result {
            Ok(row) => PrinterMaintenancePayload {
                maintenance_log: Some(row),
                ..Default::default()
            },
            Err(user_errors) => PrinterMaintenancePayload {
                user_errors,
                ..Default::default()
            },
        }
    }
}

/// Maintenance log changes (any signed-in user, like printers themselves).
#[derive(Default)]
pub struct PrinterMaintenanceMutation;

#[Object]
impl PrinterMaintenanceMutation {
    /// Records maintenance done on a printer (who did it defaults to the recording user's
    /// e-mail; when it defaults to now).
    #[graphql(guard = "Access::User")]
    async fn printer_maintenance_create(
        &self,
        ctx: &Context<'_>,
        printer_id: i64,
        input: PrinterMaintenanceCreateInput,
    ) -> AppResult<PrinterMaintenancePayload> {
        let viewer = crate::platform::auth::viewer::viewer(ctx).await?;
        let user = viewer.require_user()?;
        let mut conn = context::conn(ctx).await?;
        Ok(
            rules::create_maintenance(&mut conn, printer_id, input.into(), user)
                .await?
                .into(),
        )
    }

    /// Changes a maintenance log.
    #[graphql(guard = "Access::User")]
    async fn printer_maintenance_update(
        &self,
        ctx: &Context<'_>,
        id: i64,
        input: PrinterMaintenanceUpdateInput,
    ) -> AppResult<PrinterMaintenancePayload> {
        let mut conn = context::conn(ctx).await?;
        Ok(rules::update_maintenance(&mut conn, id, input.into())
            .await?
            .into())
    }

    /// Deletes a maintenance log.
    #[graphql(guard = "Access::User")]
    async fn printer_maintenance_delete(
        &self,
        ctx: &Context<'_>,
        id: i64,
    ) -> AppResult<PrinterMaintenancePayload> {
        let mut conn = context::conn(ctx).await?;
        if !logs::delete(&mut conn, id).await? {
            return Err(AppError::not_found("Maintenance log not found"));
        }
        Ok(PrinterMaintenancePayload {
            message: Some("Maintenance log deleted".into()),
            ..Default::default()
        })
    }
}

// ------------------------------------------------------------------ network utilities

use crate::operations::printers::import::{PrinterImportReport, import_printers};
use crate::operations::printers::rules::ProbeResult;

/// What a subnet scan found.
#[derive(Debug, Clone, SimpleObject)]
pub struct PrinterDiscovery {
    /// The reachable addresses that are not registered yet, with suggested brands.
    pub printers: Vec<ProbeResult>,
    /// How many addresses were probed (registered ones are left out).
    pub scanned: i64,
    /// What happened, for people.
    pub message: String,
}

fn bad_input(error: UserError) -> AppError {
    AppError::validation(vec![error.to_field_error()])
}

/// Printer utilities that reach out over the network or write in bulk (admins).
#[derive(Default)]
pub struct PrinterToolsMutation;

#[Object]
impl PrinterToolsMutation {
    /// Tests whether a printer answers: a TCP connect (at most 1.5 s, 2 s in all) to
    /// `port`, or to the brands' usual ports (Bambu Lab 8883, Klipper 7125, OctoPrint and
    /// Prusa Link 80). Only IPv4/IPv6 literals; loopback, link-local, multicast, unspecified
    /// and broadcast addresses are refused.
    #[graphql(guard = "Access::Admin")]
    async fn printer_test_connection(
        &self,
        #[graphql(desc = "The printer's IP address (no host names).")] ip_address: String,
        #[graphql(desc = "Only this port (1-65535); default: the brands' usual ports.", directive = crate::platform::graphql::limits::range::apply(1, 65535))]
        port: Option<i64>,
    ) -> AppResult<ProbeResult> {
        let ip = rules::probe_address("ipAddress", &ip_address).map_err(bad_input)?;
        let ports = match port {
            Some(p) => vec![rules::probe_port(p).map_err(bad_input)?],
            None => rules::brand_ports(),
        };
        Ok(rules::probe(ip, &ports, rules::PROBE_TIMEOUT, rules::PROBE_DEADLINE).await)
    }

    /// Probes one address on the brands' usual ports and suggests a brand (the same test as
    /// `printerTestConnection` without a port).
    #[graphql(guard = "Access::Admin")]
    async fn printer_probe(
        &self,
        #[graphql(desc = "The address to probe (no host names).")] ip_address: String,
    ) -> AppResult<ProbeResult> {
        let ip = rules::probe_address("ipAddress", &ip_address).map_err(bad_input)?;
        Ok(rules::probe(
            ip,
            &rules::brand_ports(),
            rules::PROBE_TIMEOUT,
            rules::PROBE_DEADLINE,
        )
        .await)
    }

    /// Scans a private IPv4 subnet of at most /24 for printers (every address on the
    /// brands' usual ports, many at once, 3 s in all) and answers the reachable addresses
    /// that no printer has yet. Without a subnet nothing is scanned.
    #[graphql(guard = "Access::Admin")]
    async fn printer_discover(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The subnet, e.g. `192.168.1.0/24`.")] subnet: Option<String>,
    ) -> AppResult<PrinterDiscovery> {
        let Some(subnet) = subnet.filter(|s| !s.trim().is_empty()) else {
            return Ok(PrinterDiscovery {
                printers: Vec::new(),
                scanned: 0,
                message: "Give a private /24 subnet to scan".into(),
            });
        };
        let hosts = rules::scan_subnet(&subnet).map_err(bad_input)?;
        let registered: std::collections::HashSet<std::net::IpAddr> =
            model::ip_addresses(&mut *context::conn(ctx).await?)
                .await?
                .iter()
                .filter_map(|a| a.trim().parse().ok())
                .collect();
        let addresses: Vec<std::net::IpAddr> = hosts
            .into_iter()
            .map(std::net::IpAddr::V4)
            .filter(|ip| !registered.contains(ip))
            .collect();
        let scanned = addresses.len() as i64;
        let (printers, cut_off) = rules::scan(addresses, rules::SCAN_DEADLINE).await;
        let mut message = format!(
            "{} of {scanned} addresses answered on a printer port",
            printers.len()
        );
        if cut_off > 0 {
            message.push_str(&format!(" ({cut_off} did not finish in time)"));
        }
        Ok(PrinterDiscovery {
            printers,
            scanned,
            message,
        })
    }

    /// Creates printers from a CSV file (columns code, name, model, brand, serial number,
    /// IP address, location, notes): rows with errors and codes that exist already are
    /// reported and skipped, the rest are created in one transaction.
    #[graphql(guard = "Access::Admin")]
    async fn printer_import_csv(
        &self,
        ctx: &Context<'_>,
        file: async_graphql::Upload,
    ) -> AppResult<PrinterImportReport> {
        let bytes = crate::platform::graphql::upload::read(ctx, file)?;
        import_printers(&mut *context::conn(ctx).await?, &bytes).await
    }
}
