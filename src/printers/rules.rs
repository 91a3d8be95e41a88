//! Printer rules (CONTRACT 5.13): required code, name and model; codes unique ignoring
//! case; JSON objects for the connection settings and capabilities; a plausible network
//! address; suggested codes.

use chrono::{DateTime, Utc};
use diesel_async::AsyncPgConnection;
use serde_json::Value;

use crate::db::text;
use crate::error::{AppResult, ErrorCode};
use crate::graphql::user_error::{UserError, UserErrorCode};
use crate::printers::model::{self, PrinterForm, PrinterRow, PrinterStatus};

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

use crate::graphql::user_error::invalid;

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

    #[test]
    fn capabilities_flags() {
        assert!(has_ams(&json!({"ams": true})));
        assert!(has_ams(&json!({"ams_slots": 4})));
        assert!(!has_ams(&json!({"ams": false, "camera": true})));
        assert!(has_camera(&json!({"camera": true})));
        assert!(!has_camera(&json!({})));
    }
}
