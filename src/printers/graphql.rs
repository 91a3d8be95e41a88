//! Printers in the schema (any signed-in user): the print farm's machines, their status and
//! how to reach them.

use async_graphql::{Context, Enum, InputObject, Json, MaybeUndefined, Object, SimpleObject};
use serde_json::Value;

use crate::auth::Access;
use crate::error::{AppError, AppResult};
use crate::graphql::context;
use crate::graphql::pagination::{DEFAULT_PAGE_SIZE, Page, PageInfo};
use crate::graphql::scalars::Timestamp;
use crate::graphql::user_error::UserError;
use crate::printers::model::{self, PrinterFilter, PrinterRow, PrinterValues};
use crate::printers::rules;

/// The largest page of printers (CONTRACT 5.13: `page_size` up to 200).
pub const MAX_PRINTER_PAGE: i64 = 200;

/// Who made the printer, which decides how Strata talks to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[graphql(rename_items = "snake_case")]
pub enum PrinterBrand {
    /// Bambu Lab (MQTT, optional AMS).
    Bambulab,
    /// Klipper (Moonraker).
    Klipper,
    /// OctoPrint.
    Octoprint,
    /// Prusa (PrusaLink / Connect).
    Prusa,
    /// Creality.
    Creality,
    /// Anything else.
    Generic,
}

impl PrinterBrand {
    /// The stored text.
    pub fn as_str(self) -> &'static str {
        match self {
            PrinterBrand::Bambulab => "bambulab",
            PrinterBrand::Klipper => "klipper",
            PrinterBrand::Octoprint => "octoprint",
            PrinterBrand::Prusa => "prusa",
            PrinterBrand::Creality => "creality",
            PrinterBrand::Generic => "generic",
        }
    }

    /// Reads the stored text (unknown values read as generic).
    pub fn parse(text: &str) -> PrinterBrand {
        match text {
            "bambulab" => PrinterBrand::Bambulab,
            "klipper" => PrinterBrand::Klipper,
            "octoprint" => PrinterBrand::Octoprint,
            "prusa" => PrinterBrand::Prusa,
            "creality" => PrinterBrand::Creality,
            _ => PrinterBrand::Generic,
        }
    }
}

/// What a printer is doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[graphql(rename_items = "snake_case")]
pub enum PrinterStatus {
    /// Not reachable (the default).
    Offline,
    /// Ready for a job.
    Idle,
    /// Printing.
    Printing,
    /// A job is paused.
    Paused,
    /// Stopped with an error.
    Error,
    /// Taken out of service for maintenance.
    Maintenance,
}

impl PrinterStatus {
    /// The stored text.
    pub fn as_str(self) -> &'static str {
        match self {
            PrinterStatus::Offline => "offline",
            PrinterStatus::Idle => "idle",
            PrinterStatus::Printing => "printing",
            PrinterStatus::Paused => "paused",
            PrinterStatus::Error => "error",
            PrinterStatus::Maintenance => "maintenance",
        }
    }

    /// Reads the stored text (unknown values read as offline).
    pub fn parse(text: &str) -> PrinterStatus {
        match text {
            "idle" => PrinterStatus::Idle,
            "printing" => PrinterStatus::Printing,
            "paused" => PrinterStatus::Paused,
            "error" => PrinterStatus::Error,
            "maintenance" => PrinterStatus::Maintenance,
            _ => PrinterStatus::Offline,
        }
    }
}

/// A 3D printer of the farm.
#[derive(Debug, Clone, SimpleObject)]
pub struct Printer {
    /// Id.
    pub id: i64,
    /// Code (upper case, unique ignoring case), e.g. `PRT-001`.
    pub code: String,
    /// Name.
    pub name: String,
    /// Model, e.g. `X1 Carbon`.
    pub model: String,
    /// Brand.
    pub brand: PrinterBrand,
    /// Serial number.
    pub serial_number: Option<String>,
    /// IP address or host name.
    pub ip_address: Option<String>,
    /// MQTT topic (Bambu Lab).
    pub mqtt_topic: Option<String>,
    /// Where it stands (free text, e.g. `Rack 2, shelf 3`).
    pub location: Option<String>,
    /// The work center it belongs to.
    pub work_center_id: Option<i64>,
    /// Notes.
    pub notes: Option<String>,
    /// Active (deleting a printer deactivates it).
    pub active: bool,
    /// What it is doing.
    pub status: PrinterStatus,
    /// How to reach it (a JSON object: access codes, API keys, ports...).
    pub connection_config: Json<Value>,
    /// What it can do (a JSON object, e.g. `{"ams": true, "camera": true}`).
    pub capabilities: Json<Value>,
    /// When it was last heard from.
    pub last_seen: Option<Timestamp>,
    /// Created.
    pub created_at: Timestamp,
    /// Changed.
    pub updated_at: Timestamp,
    /// True unless the status is offline.
    pub is_online: bool,
    /// Whether the capabilities list an automatic material system (`has_ams`, `ams`,
    /// `ams_slots` or `ams_units`).
    pub has_ams: bool,
    /// Whether the capabilities list a camera (`has_camera` or `camera`).
    pub has_camera: bool,
}

impl From<PrinterRow> for Printer {
    fn from(r: PrinterRow) -> Self {
        let status = PrinterStatus::parse(&r.status);
        Printer {
            id: r.id,
            is_online: status != PrinterStatus::Offline,
            has_ams: rules::has_ams(&r.capabilities),
            has_camera: rules::has_camera(&r.capabilities),
            code: r.code,
            name: r.name,
            model: r.model,
            brand: PrinterBrand::parse(&r.brand),
            serial_number: r.serial_number,
            ip_address: r.ip_address,
            mqtt_topic: r.mqtt_topic,
            location: r.location,
            work_center_id: r.work_center_id,
            notes: r.notes,
            active: r.active,
            status,
            connection_config: Json(r.connection_config),
            capabilities: Json(r.capabilities),
            last_seen: r.last_seen.map(Timestamp),
            created_at: Timestamp(r.created_at),
            updated_at: Timestamp(r.updated_at),
        }
    }
}

/// A page of printers, with page-number fields for page-based screens.
#[derive(Debug, Clone, SimpleObject)]
pub struct PrinterConnection {
    /// How many printers match, over all pages.
    pub total_count: i64,
    /// The printers of this page.
    pub nodes: Vec<Printer>,
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

/// Printer queries (any signed-in user).
#[derive(Default)]
pub struct PrintersQuery;

#[Object]
impl PrintersQuery {
    /// Printers by code, with search and filters.
    #[allow(clippy::too_many_arguments)]
    #[graphql(guard = "Access::User")]
    async fn printers(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Page size (1-200, default 50).")] first: Option<i64>,
        #[graphql(desc = "Rows to skip (not with `page`).")] offset: Option<i64>,
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
    ) -> AppResult<PrinterConnection> {
        let offset = match (page, offset) {
            (Some(_), Some(_)) => {
                return Err(AppError::validation(vec![crate::error::FieldError::new(
                    "page",
                    "Give either page or offset, not both",
                )]));
            }
            (Some(p), None) if p < 1 => {
                return Err(AppError::validation(vec![
                    crate::error::FieldError::new(
                        "page",
                        "Input should be greater than or equal to 1",
                    )
                    .with_kind("greater_than_equal"),
                ]));
            }
            (Some(p), None) => Some((p - 1).saturating_mul(first.unwrap_or(DEFAULT_PAGE_SIZE))),
            (None, o) => o,
        };
        let page_req = Page::with_max(first, offset, MAX_PRINTER_PAGE)?;
        let filter = PrinterFilter {
            search,
            brand: brand.map(|b| b.as_str().into()),
            status: status.map(|s| s.as_str().into()),
            active_only,
        };
        let (rows, total) = model::list(
            &mut *context::conn(ctx).await?,
            &filter,
            page_req.limit,
            page_req.offset,
        )
        .await?;
        Ok(PrinterConnection {
            total_count: total,
            nodes: rows.into_iter().map(Printer::from).collect(),
            page_info: page_req.info(total),
            page: page_req.offset / page_req.limit + 1,
            page_size: page_req.limit,
            total_pages: ((total + page_req.limit - 1) / page_req.limit).max(1),
        })
    }

    /// One printer by id.
    #[graphql(guard = "Access::User")]
    async fn printer(&self, ctx: &Context<'_>, id: i64) -> AppResult<Printer> {
        model::find(&mut *context::conn(ctx).await?, id)
            .await?
            .map(Printer::from)
            .ok_or_else(|| AppError::not_found("Printer not found"))
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
        let prefix = rules::normalize_prefix(prefix.as_deref()).map_err(|e| {
            AppError::validation(vec![crate::error::FieldError::new("prefix", e.message)])
        })?;
        let code = rules::suggest_code(&mut *context::conn(ctx).await?, &prefix).await?;
        Ok(PrinterCodeSuggestion { code, prefix })
    }
}

/// A new printer.
#[derive(Debug, Clone, InputObject)]
pub struct PrinterCreateInput {
    /// Code (unique ignoring case; stored upper case).
    pub code: String,
    /// Name.
    pub name: String,
    /// Model.
    pub model: String,
    /// Brand (default generic).
    pub brand: Option<PrinterBrand>,
    /// Serial number.
    pub serial_number: Option<String>,
    /// IP address or host name.
    pub ip_address: Option<String>,
    /// MQTT topic.
    pub mqtt_topic: Option<String>,
    /// Where it stands.
    pub location: Option<String>,
    /// The work center it belongs to.
    pub work_center_id: Option<i64>,
    /// Notes.
    pub notes: Option<String>,
    /// Active (default true).
    pub active: Option<bool>,
    /// Status (default offline).
    pub status: Option<PrinterStatus>,
    /// How to reach it (a JSON object; default `{}`).
    pub connection_config: Option<Json<Value>>,
    /// What it can do (a JSON object; default `{}`).
    pub capabilities: Option<Json<Value>>,
}

/// Changes to a printer: omitted fields keep their value, `null` clears a clearable one.
#[derive(Debug, Clone, Default, InputObject)]
pub struct PrinterUpdateInput {
    /// Code.
    pub code: Option<String>,
    /// Name.
    pub name: Option<String>,
    /// Model.
    pub model: Option<String>,
    /// Brand.
    pub brand: Option<PrinterBrand>,
    /// Serial number.
    pub serial_number: MaybeUndefined<String>,
    /// IP address or host name.
    pub ip_address: MaybeUndefined<String>,
    /// MQTT topic.
    pub mqtt_topic: MaybeUndefined<String>,
    /// Where it stands.
    pub location: MaybeUndefined<String>,
    /// The work center it belongs to.
    pub work_center_id: MaybeUndefined<i64>,
    /// Notes.
    pub notes: MaybeUndefined<String>,
    /// Active.
    pub active: Option<bool>,
    /// Status.
    pub status: Option<PrinterStatus>,
    /// How to reach it (a JSON object; replaces the whole object).
    pub connection_config: Option<Json<Value>>,
    /// What it can do (a JSON object; replaces the whole object).
    pub capabilities: Option<Json<Value>>,
}

fn change<T>(v: MaybeUndefined<T>) -> Option<Option<T>> {
    match v {
        MaybeUndefined::Undefined => None,
        MaybeUndefined::Null => Some(None),
        MaybeUndefined::Value(x) => Some(Some(x)),
    }
}

/// The time of a status report: any status but offline means the printer was just seen.
fn seen(status: Option<PrinterStatus>) -> Option<Option<chrono::DateTime<chrono::Utc>>> {
    status
        .filter(|s| *s != PrinterStatus::Offline)
        .map(|_| Some(chrono::Utc::now()))
}

impl PrinterCreateInput {
    fn values(self) -> PrinterValues {
        PrinterValues {
            code: Some(self.code),
            name: Some(self.name),
            model: Some(self.model),
            brand: self.brand.map(|b| b.as_str().into()),
            serial_number: Some(self.serial_number),
            ip_address: Some(self.ip_address),
            mqtt_topic: Some(self.mqtt_topic),
            location: Some(self.location),
            notes: Some(self.notes),
            status: self.status.map(|s| s.as_str().into()),
            connection_config: self.connection_config.map(|j| j.0),
            capabilities: self.capabilities.map(|j| j.0),
            last_seen: seen(self.status),
            active: self.active,
            work_center_id: Some(self.work_center_id),
        }
    }
}

impl PrinterUpdateInput {
    fn values(self) -> PrinterValues {
        PrinterValues {
            code: self.code,
            name: self.name,
            model: self.model,
            brand: self.brand.map(|b| b.as_str().into()),
            serial_number: change(self.serial_number),
            ip_address: change(self.ip_address),
            mqtt_topic: change(self.mqtt_topic),
            location: change(self.location),
            notes: change(self.notes),
            status: self.status.map(|s| s.as_str().into()),
            connection_config: self.connection_config.map(|j| j.0),
            capabilities: self.capabilities.map(|j| j.0),
            last_seen: seen(self.status),
            active: self.active,
            work_center_id: change(self.work_center_id),
        }
    }
}

/// The result of a printer change.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct PrinterPayload {
    /// The printer after the change.
    pub printer: Option<Printer>,
    /// What happened (delete).
    pub message: Option<String>,
    /// Rule violations (nothing was changed when present).
    pub user_errors: Vec<UserError>,
}

fn payload(r: Result<PrinterRow, Vec<UserError>>) -> PrinterPayload {
    match r {
        Ok(row) => PrinterPayload {
            printer: Some(row.into()),
            ..Default::default()
        },
        Err(user_errors) => PrinterPayload {
            user_errors,
            ..Default::default()
        },
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
        Ok(payload(rules::save(&mut conn, None, input.values()).await?))
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
        Ok(payload(
            rules::save(&mut conn, Some(id), input.values()).await?,
        ))
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
        let values = PrinterUpdateInput {
            status: Some(status),
            ..Default::default()
        }
        .values();
        Ok(payload(rules::save(&mut conn, Some(id), values).await?))
    }

    /// Deletes (deactivates) a printer; its history stays.
    #[graphql(guard = "Access::User")]
    async fn printer_delete(&self, ctx: &Context<'_>, id: i64) -> AppResult<PrinterPayload> {
        let mut conn = context::conn(ctx).await?;
        let values = PrinterValues {
            active: Some(false),
            ..Default::default()
        };
        Ok(match rules::save(&mut conn, Some(id), values).await? {
            Ok(row) => PrinterPayload {
                message: Some(format!("Printer '{}' deactivated", row.code)),
                printer: Some(row.into()),
                user_errors: vec![],
            },
            Err(user_errors) => PrinterPayload {
                user_errors,
                ..Default::default()
            },
        })
    }
}

pub use super::brands::PrinterBrandsQuery;
