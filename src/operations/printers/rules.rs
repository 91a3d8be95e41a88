//! Printer rules (CONTRACT 5.13): required code, name and model; codes unique ignoring
//! case; JSON objects for the connection settings and capabilities; a plausible network
//! address; suggested codes.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::time::Duration;

use chrono::{DateTime, Utc};
use diesel_async::AsyncPgConnection;
use serde_json::Value;

use crate::operations::printers::maintenance::{
    self as logs, LatestLog, MaintenanceForm, MaintenanceLogRow,
};
use crate::operations::printers::model::{
    self, PrinterBrand, PrinterForm, PrinterRow, PrinterStatus,
};
use crate::platform::db::text;
use crate::platform::error::{AppResult, ErrorCode};
use crate::platform::graphql::scalars::{Decimal, Timestamp};
use crate::platform::graphql::user_error::invalid;
use crate::platform::graphql::user_error::{UserError, UserErrorCode};
use crate::platform::outbound;

/// Longest code.
pub const CODE_MAX: usize = 50;
/// Longest name and model.
pub const NAME_MAX: usize = 100;
/// Longest serial number.
pub const SERIAL_MAX: usize = 100;
/// Longest MQTT topic and location text.
pub const TEXT_MAX: usize = 255;
/// Longest notes.
pub const NOTES_MAX: usize = 5_000;
/// Largest JSON object (connection settings, capabilities), serialised.
pub const JSON_MAX_BYTES: usize = 16 * 1024;
/// The prefix of suggested codes when none is given.
pub const DEFAULT_PREFIX: &str = "PRT";

/// True for an IPv4 or IPv6 address or a host name (`octopi.lan`, `printer-3`).
pub fn plausible_address(text: &str) -> bool {
    if text.parse::<std::net::IpAddr>().is_ok() {
        return true;
    }
    // A host name, optionally with a port (`octopi.lan:5000`).
    let host = match text.rsplit_once(':') {
        Some((host, port)) if port.parse::<u16>().is_ok() => host,
        _ => text,
    };
    host.len() <= 253
        && !host.is_empty()
        && host.split('.').all(|label| {
            !label.is_empty()
                && label.len() <= 63
                && !label.starts_with('-')
                && !label.ends_with('-')
                && label.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        })
}

fn json_object(errors: &mut Vec<UserError>, field: &str, value: &Option<Value>) {
    match value {
        Some(Value::Object(_)) | None => {}
        Some(_) => errors.push(invalid(
            field,
            "Input should be a valid dictionary or object",
        )),
    }
    if let Some(v) = value
        && v.to_string().len() > JSON_MAX_BYTES
    {
        errors.push(invalid(
            field,
            format!("Object should be at most {JSON_MAX_BYTES} bytes"),
        ));
    }
}

/// Checks and normalises a new (`creating`) or changed printer.
pub fn check_fields(form: &mut PrinterForm, creating: bool) -> Vec<UserError> {
    let mut errors = Vec::new();
    text::required_code(&mut errors, "code", &mut form.code, creating, CODE_MAX);
    text::required(&mut errors, "name", &mut form.name, creating, NAME_MAX);
    text::required(&mut errors, "model", &mut form.model, creating, NAME_MAX);
    text::clearable(
        &mut errors,
        "serialNumber",
        &mut form.serial_number,
        SERIAL_MAX,
    );
    text::clearable(&mut errors, "ipAddress", &mut form.ip_address, TEXT_MAX);
    if let Some(Some(address)) = &form.ip_address
        && !plausible_address(address)
    {
        errors.push(invalid(
            "ipAddress",
            "Input should be an IP address or a host name",
        ));
    }
    text::clearable(&mut errors, "mqttTopic", &mut form.mqtt_topic, TEXT_MAX);
    text::clearable(&mut errors, "location", &mut form.location, TEXT_MAX);
    text::clearable(&mut errors, "notes", &mut form.notes, NOTES_MAX);
    json_object(&mut errors, "connectionConfig", &form.connection_config);
    json_object(&mut errors, "capabilities", &form.capabilities);
    if form.work_center_id.flatten().is_some_and(|w| w <= 0) {
        errors.push(invalid("workCenterId", "Input should be greater than 0"));
    }
    errors
}

/// The time of a status report: any status but offline means the printer was just seen.
pub fn seen_at(status: Option<PrinterStatus>) -> Option<DateTime<Utc>> {
    status
        .filter(|s| *s != PrinterStatus::Offline)
        .map(|_| Utc::now())
}

/// True unless the printer is offline.
pub fn is_online(status: PrinterStatus) -> bool {
    status != PrinterStatus::Offline
}

fn taken(code: &str) -> UserError {
    UserError::new(
        "code",
        UserErrorCode::Taken,
        format!("Printer code '{code}' already exists"),
    )
}

/// Creates (`id` is `None`) or changes a printer. Field errors come back as `Err` and
/// nothing is written.
pub async fn save(
    conn: &mut AsyncPgConnection,
    id: Option<i64>,
    mut form: PrinterForm,
) -> AppResult<Result<PrinterRow, Vec<UserError>>> {
    let existing = match id {
        Some(id) => Some(model::find(conn, id).await?),
        None => None,
    };
    let errors = check_fields(&mut form, existing.is_none());
    if !errors.is_empty() {
        return Ok(Err(errors));
    }
    if let Some(code) = &form.code
        && let Some(other) = model::find_by_code(conn, code).await?
        && existing.as_ref().is_none_or(|e| e.id != other.id)
    {
        return Ok(Err(vec![taken(code)]));
    }
    let seen = seen_at(form.status);
    let result = match &existing {
        Some(e) => model::update(conn, e.id, &form, seen).await,
        None => model::insert(conn, &form, seen).await,
    };
    match result {
        Ok(row) => Ok(Ok(row)),
        // A concurrent insert of the same code lost the race to the unique index.
        Err(e) if e.code == ErrorCode::Conflict => {
            Ok(Err(vec![taken(form.code.as_deref().unwrap_or_default())]))
        }
        Err(e) => Err(e),
    }
}

/// A prefix for suggested codes: letters, digits, `_` and `-`, at most 20, upper case.
pub fn normalize_prefix(raw: Option<&str>) -> Result<String, UserError> {
    let prefix = raw
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .unwrap_or(DEFAULT_PREFIX)
        .trim_end_matches('-')
        .to_uppercase();
    if prefix.is_empty()
        || prefix.len() > 20
        || !prefix
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        return Err(invalid(
            "prefix",
            "Use 1 to 20 letters, digits, dashes or underscores",
        ));
    }
    Ok(prefix)
}

/// The next free code of the form `PREFIX-NNN` after the highest one used. A suggestion
/// only: nothing is reserved, and creating the printer still checks uniqueness.
pub async fn suggest_code(conn: &mut AsyncPgConnection, prefix: &str) -> AppResult<String> {
    let n = model::highest_code_number(conn, prefix).await? + 1;
    Ok(format!("{prefix}-{n:03}"))
}

/// A value counts as "yes" when it is `true`, a positive number, a non-empty string, list
/// or object.
fn truthy(v: Option<&Value>) -> bool {
    match v {
        Some(Value::Bool(b)) => *b,
        Some(Value::Number(n)) => n.as_f64().is_some_and(|f| f > 0.0),
        Some(Value::String(s)) => !s.is_empty() && s != "false" && s != "0",
        Some(Value::Array(a)) => !a.is_empty(),
        Some(Value::Object(o)) => !o.is_empty(),
        _ => false,
    }
}

/// Whether the capabilities say the printer has an automatic material system (`has_ams`,
/// `ams`, `ams_slots` or `ams_units`).
pub fn has_ams(capabilities: &Value) -> bool {
    ["has_ams", "ams", "ams_slots", "ams_units"]
        .iter()
        .any(|k| truthy(capabilities.get(k)))
}

/// Whether the capabilities say the printer has a camera (`has_camera` or `camera`).
pub fn has_camera(capabilities: &Value) -> bool {
    ["has_camera", "camera"]
        .iter()
        .any(|k| truthy(capabilities.get(k)))
}

// ------------------------------------------------------------------ maintenance logs

/// Longest maintenance description.
pub const MAINTENANCE_DESCRIPTION_MAX: usize = 1_000;
/// Longest "performed by".
pub const PERFORMED_BY_MAX: usize = 100;
/// Longest list of parts used.
pub const PARTS_USED_MAX: usize = 2_000;
/// How far in the future a `performedAt` may be (clocks differ a little).
pub const PERFORMED_AT_SLACK: chrono::Duration = chrono::Duration::minutes(1);
/// The largest cost (`NUMERIC(12, 2)`: ten digits before the point).
const COST_LIMIT: i64 = 10_000_000_000;
/// The default look-ahead of `/maintenance/due`, in days.
pub const DUE_DAYS_AHEAD: i64 = 7;
/// The largest look-ahead of `/maintenance/due`, in days.
pub const DUE_DAYS_AHEAD_MAX: i64 = 365;

/// Checks and normalises a new (`existing` is `None`) or changed maintenance log against
/// the clock `now`: a description, text lengths, `performedAt` not in the future (one minute
/// of slack), `nextDueAt` after `performedAt` (the stored values count for what a change
/// leaves out), a cost and downtime of at least 0.
pub fn check_maintenance(
    form: &mut MaintenanceForm,
    existing: Option<&MaintenanceLogRow>,
    now: DateTime<Utc>,
) -> Vec<UserError> {
    let mut errors = Vec::new();
    text::required(
        &mut errors,
        "description",
        &mut form.description,
        existing.is_none(),
        MAINTENANCE_DESCRIPTION_MAX,
    );
    if existing.is_none() && form.maintenance_type.is_none() {
        errors.push(invalid("maintenanceType", "Field required"));
    }
    text::clearable(
        &mut errors,
        "performedBy",
        &mut form.performed_by,
        PERFORMED_BY_MAX,
    );
    text::clearable(
        &mut errors,
        "partsUsed",
        &mut form.parts_used,
        PARTS_USED_MAX,
    );
    text::clearable(&mut errors, "notes", &mut form.notes, NOTES_MAX);
    let performed_at = form
        .performed_at
        .map(|t| t.0)
        .or(existing.map(|e| e.performed_at.0))
        .unwrap_or(now);
    if performed_at > now + PERFORMED_AT_SLACK {
        errors.push(invalid("performedAt", "Must not be in the future"));
    }
    let next_due = match form.next_due_at {
        Some(value) => value.map(|t| t.0),
        None => existing.and_then(|e| e.next_due_at.map(|t| t.0)),
    };
    if let Some(due) = next_due
        && due <= performed_at
    {
        let field = if form.next_due_at.is_some() {
            "nextDueAt"
        } else {
            "performedAt"
        };
        errors.push(invalid(
            field,
            "The next due date must be after performedAt",
        ));
    }
    if let Some(Some(Decimal(cost))) = &form.cost {
        if cost < &bigdecimal::BigDecimal::from(0) {
            errors.push(invalid(
                "cost",
                "Input should be greater than or equal to 0",
            ));
        } else if cost.fractional_digit_count() > 2
            && cost.normalized().fractional_digit_count() > 2
        {
            errors.push(invalid(
                "cost",
                "Input should have at most 2 decimal places",
            ));
        } else if cost >= &bigdecimal::BigDecimal::from(COST_LIMIT) {
            errors.push(invalid(
                "cost",
                "Input should have at most 10 digits before the decimal point",
            ));
        }
    }
    if form.downtime_minutes.flatten().is_some_and(|m| m < 0) {
        errors.push(invalid(
            "downtimeMinutes",
            "Input should be greater than or equal to 0",
        ));
    }
    errors
}

/// Records maintenance on a printer (`Printer not found` is a 404). Who did it defaults to
/// `recorded_by`'s e-mail.
pub async fn create_maintenance(
    conn: &mut AsyncPgConnection,
    printer_id: i64,
    mut form: MaintenanceForm,
    recorded_by: &crate::platform::auth::viewer::CurrentUser,
) -> AppResult<Result<MaintenanceLogRow, Vec<UserError>>> {
    model::find(conn, printer_id).await?;
    let errors = check_maintenance(&mut form, None, Utc::now());
    if !errors.is_empty() {
        return Ok(Err(errors));
    }
    if form.performed_by.as_ref().is_none_or(Option::is_none) {
        form.performed_by = Some(Some(recorded_by.email.clone()));
    }
    Ok(Ok(logs::insert(
        conn,
        printer_id,
        &form,
        Some(recorded_by.id),
    )
    .await?))
}

/// Changes a maintenance log (`Maintenance log not found` is a 404).
pub async fn update_maintenance(
    conn: &mut AsyncPgConnection,
    id: i64,
    mut form: MaintenanceForm,
) -> AppResult<Result<MaintenanceLogRow, Vec<UserError>>> {
    let existing = logs::find(conn, id).await?;
    let errors = check_maintenance(&mut form, Some(&existing), Utc::now());
    if !errors.is_empty() {
        return Ok(Err(errors));
    }
    Ok(Ok(logs::update(conn, id, &form).await?))
}

/// A printer whose maintenance is due (`/maintenance/due`).
#[derive(Debug, Clone, PartialEq, Eq, async_graphql::SimpleObject)]
pub struct MaintenanceDue {
    /// The printer.
    pub printer_id: i64,
    /// Its code.
    pub printer_code: String,
    /// Its name.
    pub printer_name: String,
    /// When its latest maintenance was done.
    pub last_maintenance_at: Timestamp,
    /// What its latest maintenance was.
    pub last_maintenance_type: crate::operations::printers::maintenance::MaintenanceType,
    /// When the latest log says it is due again.
    pub next_due_at: Timestamp,
    /// Whole days past due: positive when overdue, 0 within the day, negative when it is
    /// still ahead (`-3`: due in three days and some hours).
    pub days_overdue: i64,
    /// True when the due time has passed.
    pub overdue: bool,
}

/// Which of the printers' latest logs are due at `now` or within `days_ahead` days, the
/// most overdue first (then by code).
pub fn due(latest: Vec<LatestLog>, now: DateTime<Utc>, days_ahead: i64) -> Vec<MaintenanceDue> {
    let horizon = now + chrono::Duration::days(days_ahead);
    let mut out: Vec<MaintenanceDue> = latest
        .into_iter()
        .filter_map(|l| {
            let next = l.next_due_at.filter(|n| *n <= horizon)?;
            Some(MaintenanceDue {
                printer_id: l.printer_id,
                printer_code: l.printer_code,
                printer_name: l.printer_name,
                last_maintenance_at: Timestamp(l.performed_at),
                last_maintenance_type: l.maintenance_type,
                next_due_at: Timestamp(next),
                days_overdue: (now - next).num_days(),
                overdue: next <= now,
            })
        })
        .collect();
    out.sort_by(|a, b| {
        a.next_due_at
            .cmp(&b.next_due_at)
            .then_with(|| a.printer_code.cmp(&b.printer_code))
    });
    out
}

/// Checks the look-ahead of `/maintenance/due` (0 to 365 days; default 7).
pub fn days_ahead(raw: Option<i64>) -> Result<i64, UserError> {
    let days = raw.unwrap_or(DUE_DAYS_AHEAD);
    if (0..=DUE_DAYS_AHEAD_MAX).contains(&days) {
        Ok(days)
    } else {
        Err(invalid(
            "daysAhead",
            format!("Input should be between 0 and {DUE_DAYS_AHEAD_MAX}"),
        ))
    }
}

// ------------------------------------------------------------------ reaching printers

/// How long one TCP connect may take when testing one printer.
pub const PROBE_TIMEOUT: Duration = Duration::from_millis(1_500);
/// How long a whole test of one address may take (connects and reading a web page).
pub const PROBE_DEADLINE: Duration = Duration::from_secs(2);
/// How long one connect may take during a subnet scan.
pub const SCAN_CONNECT_TIMEOUT: Duration = Duration::from_millis(700);
/// How long a whole subnet scan may take.
pub const SCAN_DEADLINE: Duration = Duration::from_secs(3);
/// How many addresses a scan probes at once (each on every brand port).
pub const SCAN_CONCURRENCY: usize = 96;
/// The longest web page read to recognise a printer's interface.
const BANNER_MAX: usize = 16 * 1024;

/// The ports printers usually answer on, and the brand each one suggests (`None`: a web
/// interface, recognised by its page when it can be).
pub const BRAND_PORTS: &[(u16, &str, Option<PrinterBrand>)] = &[
    (
        8883,
        "Bambu Lab MQTT over TLS",
        Some(PrinterBrand::Bambulab),
    ),
    (7125, "Klipper (Moonraker)", Some(PrinterBrand::Klipper)),
    (80, "Web interface (OctoPrint, Prusa Link)", None),
];

/// The brand ports alone.
pub fn brand_ports() -> Vec<u16> {
    BRAND_PORTS.iter().map(|(p, _, _)| *p).collect()
}

/// Why an address may not be probed, if it may not: the outbound rules for a service on the
/// local network (`outbound::address_refusal` with `LocalNetwork`: no unspecified, link-local,
/// cloud metadata, multicast or broadcast addresses) plus loopback, since probing would let
/// the server scan itself. Private LAN ranges are allowed: printers live there. An
/// IPv4-mapped IPv6 address is judged as its IPv4 address.
pub fn refused_address(ip: IpAddr) -> Option<String> {
    let why = if crate::platform::config::canonical(ip).is_loopback() {
        Some("a loopback address")
    } else {
        outbound::address_refusal(ip, outbound::AddressPolicy::LocalNetwork)
    };
    why.map(|what| format!("The address is {what}: it is not probed"))
}

/// An address to probe: an IPv4 or IPv6 literal (no host names: nothing is resolved) that
/// [`refused_address`] allows. The error is on `field`.
pub fn probe_address(field: &str, raw: &str) -> Result<IpAddr, UserError> {
    let text = raw.trim();
    let text = text
        .strip_prefix('[')
        .and_then(|t| t.strip_suffix(']'))
        .unwrap_or(text);
    let ip: IpAddr = text.parse().map_err(|_| {
        invalid(
            field,
            "Input should be an IPv4 or IPv6 address (host names are not probed)",
        )
    })?;
    match refused_address(ip) {
        Some(why) => Err(invalid(field, why)),
        None => Ok(ip),
    }
}

/// A port to test: 1 to 65535.
pub fn probe_port(raw: i64) -> Result<u16, UserError> {
    u16::try_from(raw)
        .ok()
        .filter(|p| *p > 0)
        .ok_or_else(|| invalid("port", "Input should be between 1 and 65535"))
}

/// A private IPv4 subnet to scan, at most a /24: `192.168.1.0/24` (a plain address is a
/// /32; host bits are ignored). The addresses to probe, without the network and broadcast
/// addresses of subnets that have them.
pub fn scan_subnet(raw: &str) -> Result<Vec<Ipv4Addr>, UserError> {
    const MESSAGE: &str = "Give a private IPv4 subnet of at most /24, e.g. 192.168.1.0/24";
    let text = raw.trim();
    let (address, prefix) = match text.split_once('/') {
        Some((a, p)) => (a, p.parse::<u8>().map_err(|_| invalid("subnet", MESSAGE))?),
        None => (text, 32),
    };
    let ip: Ipv4Addr = address.parse().map_err(|_| invalid("subnet", MESSAGE))?;
    if !(24..=32).contains(&prefix) {
        return Err(invalid("subnet", MESSAGE));
    }
    if !ip.is_private() {
        return Err(invalid(
            "subnet",
            "Only private ranges are scanned (10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16)",
        ));
    }
    let mask = u32::MAX << (32 - u32::from(prefix));
    let network = u32::from(ip) & mask;
    let size = 1u32 << (32 - u32::from(prefix));
    let hosts = if size > 2 {
        (network + 1..network + size - 1).collect::<Vec<_>>()
    } else {
        (network..network + size).collect()
    };
    Ok(hosts.into_iter().map(Ipv4Addr::from).collect())
}

/// How long a TCP connect to `addr` took, or `None` when nothing answered within `timeout`
/// (refused, unreachable or silent).
pub async fn connect(addr: SocketAddr, timeout: Duration) -> Option<Duration> {
    let started = std::time::Instant::now();
    match tokio::time::timeout(timeout, tokio::net::TcpStream::connect(addr)).await {
        Ok(Ok(_stream)) => Some(started.elapsed()),
        _ => None,
    }
}

/// The start of the web page served at `addr` (`GET /`), read until `timeout`; `None` when
/// nothing readable came back.
pub async fn http_banner(addr: SocketAddr, timeout: Duration) -> Option<String> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let read = async {
        let mut stream = tokio::net::TcpStream::connect(addr).await.ok()?;
        let host = match addr.ip() {
            IpAddr::V4(v4) => v4.to_string(),
            IpAddr::V6(v6) => format!("[{v6}]"),
        };
        let request = format!(
            "GET / HTTP/1.0\r\nHost: {host}\r\nUser-Agent: strata-printer-probe\r\nConnection: close\r\n\r\n"
        );
        stream.write_all(request.as_bytes()).await.ok()?;
        let mut out = Vec::new();
        let mut buffer = [0u8; 4096];
        while out.len() < BANNER_MAX {
            match stream.read(&mut buffer).await {
                Ok(0) | Err(_) => break,
                Ok(n) => out.extend_from_slice(buffer.get(..n).unwrap_or_default()),
            }
        }
        (!out.is_empty()).then(|| String::from_utf8_lossy(&out).into_owned())
    };
    tokio::time::timeout(timeout, read).await.ok().flatten()
}

/// The brand a web page names (OctoPrint, Prusa Link, Mainsail/Fluidd for Klipper).
pub fn brand_of_page(page: &str) -> Option<PrinterBrand> {
    let page = page.to_ascii_lowercase();
    if page.contains("octoprint") {
        Some(PrinterBrand::Octoprint)
    } else if page.contains("prusalink") || page.contains("prusa link") || page.contains("prusa") {
        Some(PrinterBrand::Prusa)
    } else if page.contains("mainsail") || page.contains("fluidd") || page.contains("moonraker") {
        Some(PrinterBrand::Klipper)
    } else if page.contains("creality") {
        Some(PrinterBrand::Creality)
    } else {
        None
    }
}

/// What probing one address found.
#[derive(Debug, Clone, PartialEq, Eq, async_graphql::SimpleObject)]
pub struct ProbeResult {
    /// The address probed.
    pub ip_address: String,
    /// True when at least one port answered.
    pub reachable: bool,
    /// The ports that accepted a connection, ascending.
    pub open_ports: Vec<i32>,
    /// The brand the open ports (or the web page) suggest, if any.
    pub suggested_brand: Option<PrinterBrand>,
    /// The fastest connect, in milliseconds, when one answered.
    pub latency_ms: Option<i64>,
    /// What was found, for people.
    pub message: String,
}

/// Probes `ports` of `ip` at once, each connect within `connect_timeout`; when a web port
/// answers and no port named a brand, reads its page within what is left of `deadline`.
/// No address rule is applied here: callers check [`probe_address`] first.
pub async fn probe(
    ip: IpAddr,
    ports: &[u16],
    connect_timeout: Duration,
    deadline: Duration,
) -> ProbeResult {
    let started = tokio::time::Instant::now();
    let attempts = ports.iter().map(|port| async move {
        (
            *port,
            connect(SocketAddr::new(ip, *port), connect_timeout).await,
        )
    });
    let answers = futures_util::future::join_all(attempts).await;
    let mut open: Vec<(u16, Duration)> = answers
        .into_iter()
        .filter_map(|(port, took)| took.map(|t| (port, t)))
        .collect();
    open.sort_by_key(|(port, _)| *port);
    let latency = open.iter().map(|(_, t)| *t).min();
    let known = |port: u16| BRAND_PORTS.iter().find(|(p, _, _)| *p == port);
    let mut brand = BRAND_PORTS
        .iter()
        .filter(|(p, _, _)| open.iter().any(|(o, _)| o == p))
        .find_map(|(_, _, b)| *b);
    if brand.is_none() {
        // A web port (a brand port without a brand, or any other port asked for).
        let web = open
            .iter()
            .map(|(p, _)| *p)
            .find(|p| known(*p).is_none_or(|(_, _, b)| b.is_none()));
        if let Some(port) = web {
            let left = deadline.saturating_sub(started.elapsed());
            if !left.is_zero()
                && let Some(page) = http_banner(SocketAddr::new(ip, port), left).await
            {
                brand = brand_of_page(&page);
            }
        }
    }
    let ports_text: Vec<String> = open
        .iter()
        .map(|(p, _)| match known(*p) {
            Some((_, what, _)) => format!("{p} ({what})"),
            None => p.to_string(),
        })
        .collect();
    let message = match (open.is_empty(), brand) {
        (true, _) => format!(
            "No answer from {ip} on port{} {}",
            if ports.len() == 1 { "" } else { "s" },
            ports
                .iter()
                .map(u16::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
        (false, Some(b)) => format!(
            "{ip} answers on {}; it looks like a {} printer",
            ports_text.join(", "),
            crate::operations::printers::brands::info(b).name
        ),
        (false, None) => format!("{ip} answers on {}", ports_text.join(", ")),
    };
    ProbeResult {
        ip_address: ip.to_string(),
        reachable: !open.is_empty(),
        open_ports: open.iter().map(|(p, _)| i32::from(*p)).collect(),
        suggested_brand: brand,
        latency_ms: latency.map(|t| i64::try_from(t.as_millis()).unwrap_or(i64::MAX)),
        message,
    }
}

/// Probes every address at once (at most [`SCAN_CONCURRENCY`] at a time) on the brand
/// ports and answers the reachable ones, in address order; addresses still unanswered when
/// `deadline` passes count as unreachable. The second value is how many were cut off.
pub async fn scan(addresses: Vec<IpAddr>, deadline: Duration) -> (Vec<ProbeResult>, usize) {
    use futures_util::StreamExt;
    let ports = brand_ports();
    let total = addresses.len();
    let end = tokio::time::Instant::now() + deadline;
    let mut stream = futures_util::stream::iter(addresses.into_iter().map(|ip| {
        let ports = ports.clone();
        async move {
            let left = end.saturating_duration_since(tokio::time::Instant::now());
            probe(ip, &ports, SCAN_CONNECT_TIMEOUT.min(left), left).await
        }
    }))
    .buffer_unordered(SCAN_CONCURRENCY);
    let mut found = Vec::new();
    let mut done = 0;
    while let Ok(Some(result)) = tokio::time::timeout_at(end, stream.next()).await {
        done += 1;
        if result.reachable {
            found.push(result);
        }
    }
    found.sort_by_key(|r| r.ip_address.parse::<IpAddr>().ok());
    (found, total - done)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn addresses_and_prefixes() {
        for ok in [
            "192.168.1.20",
            "::1",
            "octopi.lan",
            "printer-3",
            "octopi.lan:5000",
        ] {
            assert!(plausible_address(ok), "{ok}");
        }
        for bad in ["", "not an address", "-bad.lan", "a..b", "http://x"] {
            assert!(!plausible_address(bad), "{bad}");
        }
        assert_eq!(normalize_prefix(None).ok(), Some("PRT".into()));
        assert_eq!(normalize_prefix(Some("bl-")).ok(), Some("BL".into()));
        assert!(normalize_prefix(Some("a b")).is_err());
        assert!(normalize_prefix(Some("(.*)")).is_err());
    }

    use crate::operations::printers::maintenance::MaintenanceType;
    use chrono::TimeZone;

    fn at(h: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 30, h, 0, 0)
            .single()
            .expect("valid time")
    }

    fn stored(performed: DateTime<Utc>, due: Option<DateTime<Utc>>) -> MaintenanceLogRow {
        MaintenanceLogRow {
            id: 1,
            printer_id: 1,
            maintenance_type: MaintenanceType::Routine,
            description: "Lubricated rods".into(),
            performed_by: None,
            performed_at: Timestamp(performed),
            next_due_at: due.map(Timestamp),
            cost: None,
            downtime_minutes: None,
            parts_used: None,
            notes: None,
            created_by: None,
            created_at: Timestamp(performed),
            updated_at: Timestamp(performed),
        }
    }

    fn fields(errors: &[UserError]) -> Vec<&str> {
        errors.iter().filter_map(|e| e.field.as_deref()).collect()
    }

    #[test]
    fn maintenance_rules() {
        let now = at(12);
        let mut ok = MaintenanceForm {
            maintenance_type: Some(MaintenanceType::Cleaning),
            description: Some("  Cleaned the bed ".into()),
            performed_at: Some(Timestamp(now + chrono::Duration::seconds(30))),
            next_due_at: Some(Some(Timestamp(now + chrono::Duration::days(30)))),
            cost: Some(Some(Decimal("12.50".parse().expect("decimal")))),
            downtime_minutes: Some(Some(0)),
            performed_by: Some(Some("  ".into())),
            ..Default::default()
        };
        assert!(check_maintenance(&mut ok, None, now).is_empty());
        assert_eq!(ok.description.as_deref(), Some("Cleaned the bed"));
        assert_eq!(ok.performed_by, Some(None), "blank becomes null");

        let mut bad = MaintenanceForm {
            description: Some("x".repeat(1001)),
            performed_at: Some(Timestamp(now + chrono::Duration::minutes(2))),
            next_due_at: Some(Some(Timestamp(now))),
            cost: Some(Some(Decimal("-1".parse().expect("decimal")))),
            downtime_minutes: Some(Some(-5)),
            performed_by: Some(Some("p".repeat(101))),
            parts_used: Some(Some("p".repeat(2001))),
            ..Default::default()
        };
        assert_eq!(
            fields(&check_maintenance(&mut bad, None, now)),
            [
                "description",
                "maintenanceType",
                "performedBy",
                "partsUsed",
                "performedAt",
                "nextDueAt",
                "cost",
                "downtimeMinutes"
            ]
        );
        let mut cents = MaintenanceForm {
            cost: Some(Some(Decimal("1.005".parse().expect("decimal")))),
            ..Default::default()
        };
        assert_eq!(
            fields(&check_maintenance(
                &mut cents,
                Some(&stored(at(1), None)),
                now
            )),
            ["cost"]
        );
        // A change counts the stored values: moving performedAt past the stored due date.
        let existing = stored(at(1), Some(at(5)));
        let mut later = MaintenanceForm {
            performed_at: Some(Timestamp(at(6))),
            ..Default::default()
        };
        assert_eq!(
            fields(&check_maintenance(&mut later, Some(&existing), now)),
            ["performedAt"]
        );
        let mut cleared = MaintenanceForm {
            performed_at: Some(Timestamp(at(6))),
            next_due_at: Some(None),
            ..Default::default()
        };
        assert!(check_maintenance(&mut cleared, Some(&existing), now).is_empty());
        assert_eq!(days_ahead(None).ok(), Some(7));
        assert!(days_ahead(Some(-1)).is_err());
        assert!(days_ahead(Some(366)).is_err());
    }

    #[test]
    fn due_arithmetic() {
        let now = at(12);
        let log = |id: i64, code: &str, due: Option<DateTime<Utc>>| LatestLog {
            printer_id: id,
            printer_code: code.into(),
            printer_name: code.into(),
            performed_at: at(0) - chrono::Duration::days(60),
            maintenance_type: MaintenanceType::Routine,
            next_due_at: due,
        };
        let list = due(
            vec![
                log(1, "SOON", Some(now + chrono::Duration::hours(3 * 24 + 5))),
                log(2, "LATE", Some(now - chrono::Duration::hours(2 * 24 + 1))),
                log(3, "FAR", Some(now + chrono::Duration::days(8))),
                log(4, "NONE", None),
                log(5, "TODAY", Some(now - chrono::Duration::hours(1))),
            ],
            now,
            7,
        );
        let got: Vec<(&str, i64, bool)> = list
            .iter()
            .map(|d| (d.printer_code.as_str(), d.days_overdue, d.overdue))
            .collect();
        assert_eq!(
            got,
            [("LATE", 2, true), ("TODAY", 0, true), ("SOON", -3, false)]
        );
        assert_eq!(
            due(
                vec![log(3, "FAR", Some(now + chrono::Duration::days(8)))],
                now,
                8
            )
            .len(),
            1
        );
        assert!(
            due(
                vec![log(1, "SOON", Some(now + chrono::Duration::days(1)))],
                now,
                0
            )
            .is_empty()
        );
    }

    #[test]
    fn refused_addresses() {
        for bad in [
            "127.0.0.1",
            "127.8.9.10",
            "::1",
            "169.254.1.1",
            "fe80::1",
            "224.0.0.251",
            "ff02::fb",
            "0.0.0.0",
            "0.1.2.3",
            "::",
            "255.255.255.255",
            "::ffff:127.0.0.1",
        ] {
            let ip: IpAddr = bad.parse().expect("ip");
            assert!(refused_address(ip).is_some(), "{bad}");
            assert!(probe_address("ipAddress", bad).is_err(), "{bad}");
        }
        for good in [
            "192.168.1.20",
            "10.0.0.5",
            "172.16.3.4",
            "8.8.8.8",
            "fd00::5",
            "[fd00::5]",
        ] {
            assert!(probe_address("ipAddress", good).is_ok(), "{good}");
        }
        for name in [
            "octopi.lan",
            "localhost",
            "",
            "192.168.1.300",
            "http://10.0.0.1",
        ] {
            let e = probe_address("ipAddress", name).expect_err(name);
            assert_eq!(e.field.as_deref(), Some("ipAddress"));
        }
        assert_eq!(probe_port(7125).ok(), Some(7125));
        assert!(probe_port(0).is_err());
        assert!(probe_port(65536).is_err());
    }

    #[test]
    fn subnets() {
        let hosts = scan_subnet("192.168.1.0/24").expect("a /24");
        assert_eq!(hosts.len(), 254);
        assert_eq!(hosts.first(), Some(&Ipv4Addr::new(192, 168, 1, 1)));
        assert_eq!(hosts.last(), Some(&Ipv4Addr::new(192, 168, 1, 254)));
        // Host bits are ignored; smaller subnets and single addresses work.
        assert_eq!(scan_subnet("10.1.2.77/24").expect("a /24").len(), 254);
        assert_eq!(scan_subnet("172.16.0.8/30").expect("a /30").len(), 2);
        assert_eq!(scan_subnet("172.16.0.8/31").expect("a /31").len(), 2);
        assert_eq!(
            scan_subnet("192.168.7.9").expect("one address"),
            [Ipv4Addr::new(192, 168, 7, 9)]
        );
        for bad in [
            "192.168.0.0/16",
            "192.168.1.0/23",
            "8.8.8.0/24",
            "127.0.0.0/24",
            "169.254.0.0/24",
            "fd00::/120",
            "192.168.1.0/33",
            "192.168.1.0/x",
            "net",
        ] {
            let e = scan_subnet(bad).expect_err(bad);
            assert_eq!(e.field.as_deref(), Some("subnet"), "{bad}");
        }
    }

    #[tokio::test]
    async fn a_probe_finds_an_open_port_and_reads_the_web_page() {
        use tokio::io::AsyncWriteExt;
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let open = listener.local_addr().expect("addr");
        tokio::spawn(async move {
            while let Ok((mut socket, _)) = listener.accept().await {
                let _ = socket
                    .write_all(b"HTTP/1.0 200 OK\r\n\r\n<title>OctoPrint</title>")
                    .await;
            }
        });
        // A port that was open a moment ago and is closed now.
        let closed = {
            let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
            l.local_addr().expect("addr")
        };
        assert!(connect(open, PROBE_TIMEOUT).await.is_some());
        assert!(connect(closed, PROBE_TIMEOUT).await.is_none());
        let page = http_banner(open, PROBE_TIMEOUT).await.expect("a page");
        assert_eq!(brand_of_page(&page), Some(PrinterBrand::Octoprint));

        let result = probe(
            open.ip(),
            &[closed.port(), open.port()],
            PROBE_TIMEOUT,
            PROBE_DEADLINE,
        )
        .await;
        assert!(result.reachable);
        assert_eq!(result.open_ports, [i32::from(open.port())]);
        assert_eq!(result.suggested_brand, Some(PrinterBrand::Octoprint));
        assert!(result.latency_ms.is_some_and(|ms| ms < 1_000));
        assert!(result.message.contains("OctoPrint"), "{}", result.message);

        let nothing = probe(closed.ip(), &[closed.port()], PROBE_TIMEOUT, PROBE_DEADLINE).await;
        assert!(!nothing.reachable);
        assert_eq!(nothing.latency_ms, None);
        assert_eq!(nothing.suggested_brand, None);
        assert!(
            nothing.message.starts_with("No answer"),
            "{}",
            nothing.message
        );
        assert_eq!(
            brand_of_page("<title>Mainsail</title>"),
            Some(PrinterBrand::Klipper)
        );
        assert_eq!(brand_of_page("<title>Router</title>"), None);
    }

    #[test]
    fn capabilities_flags() {
        assert!(has_ams(&json!({"ams": true})));
        assert!(has_ams(&json!({"ams_slots": 4})));
        assert!(!has_ams(&json!({"ams": false, "camera": true})));
        assert!(has_camera(&json!({"camera": true})));
        assert!(!has_camera(&json!({})));
    }
}
