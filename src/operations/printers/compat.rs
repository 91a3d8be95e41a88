//! Printer and material compatibility, the one place its rules live: what a printer can
//! print ([`machine_caps`], from its capabilities JSON and model), what a material needs
//! ([`material_needs`], from its material type), and whether the two fit ([`compatible`]).
//! The scheduler books against them, and production checks them when an operation is
//! started on a printer and when an order's compatibility is asked.

use std::collections::HashMap;

use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use serde_json::Value;

use crate::platform::db::schema::{material_colors, material_types};
use crate::platform::error::AppResult;

use crate::ledgers::materials::model::MaterialTypeRow;

/// Models with an enclosed build volume, as runs of words (upper case, letters and digits):
/// a model name containing one of these runs is enclosed. Every other model (A1, A1 mini,
/// P1P, MK4, Ender...) counts as open.
const ENCLOSED_MODELS: &[&[&str]] = &[
    &["X1"],
    &["X1C"],
    &["X1E"],
    &["X1CARBON"],
    &["P1S"],
    &["H2D"],
    &["H2S"],
    &["K1"],
    &["K1C"],
    &["K1MAX"],
    &["K2"],
    &["K2PLUS"],
    &["CORE", "ONE"],
    &["COREONE"],
];

/// The words of a model name: runs of letters and digits, upper case (`X1-Carbon` ->
/// `X1`, `CARBON`).
fn words(model: &str) -> Vec<String> {
    model
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_uppercase)
        .collect()
}

/// Whether a model is known to be enclosed (see [`ENCLOSED_MODELS`]).
pub fn enclosed_model(model: &str) -> bool {
    let words = words(model);
    ENCLOSED_MODELS.iter().any(|run| {
        words
            .windows(run.len())
            .any(|w| w.iter().zip(run.iter()).all(|(a, b)| a == b))
    })
}

/// The first of `keys` holding a boolean.
fn flag(capabilities: &Value, keys: &[&str]) -> Option<bool> {
    keys.iter()
        .find_map(|k| capabilities.get(k).and_then(Value::as_bool))
}

/// The first of `keys` holding a temperature: a number (rounded down) or a text of one.
fn temperature(capabilities: &Value, keys: &[&str]) -> Option<i32> {
    keys.iter()
        .find_map(|k| match capabilities.get(k)? {
            Value::Number(n) => n
                .as_i64()
                .or_else(|| n.as_f64().map(|f| f.floor() as i64))
                .and_then(|t| i32::try_from(t).ok()),
            Value::String(s) => s.trim().parse::<f64>().ok().map(|f| f.floor() as i32),
            _ => None,
        })
        .filter(|t| *t > 0)
}

/// The first of `keys` holding a positive number (or a text of one, or the first of a list).
fn number(capabilities: &Value, keys: &[&str]) -> Option<f64> {
    keys.iter()
        .find_map(|k| {
            let v = capabilities.get(k)?;
            let v = v.as_array().and_then(|a| <[_]>::first(a)).unwrap_or(v);
            match v {
                Value::Number(n) => n.as_f64(),
                Value::String(s) => s.trim().parse::<f64>().ok(),
                _ => None,
            }
        })
        .filter(|d| *d > 0.0)
}

/// What a printer can print, from its capabilities JSON: `enclosed` (or `enclosure`) as a
/// boolean, `max_nozzle_temp_c` (or `max_nozzle_temp`, `max_temp_hotend`) and
/// `max_bed_temp_c` (or `max_bed_temp`, `max_temp_bed`) in °C, `hardened_nozzle` as a
/// boolean, and `filament_diameter_mm` (or `filament_diameter`, or the first of
/// `filament_diameters`). Without an enclosure key the model name decides (X1 Carbon, X1E,
/// P1S, H2D, K1, K1 Max, Core One... are enclosed; A1, P1P, MK4, Ender... are not). A
/// missing temperature is unknown, which reads as no limit; a missing nozzle or diameter is
/// unknown too (a warning, not a refusal).
pub fn machine_caps(capabilities: &Value, model: &str) -> MachineCaps {
    MachineCaps {
        enclosed: flag(capabilities, &["enclosed", "enclosure"])
            .unwrap_or_else(|| enclosed_model(model)),
        max_nozzle_temp_c: temperature(
            capabilities,
            &["max_nozzle_temp_c", "max_nozzle_temp", "max_temp_hotend"],
        ),
        max_bed_temp_c: temperature(
            capabilities,
            &["max_bed_temp_c", "max_bed_temp", "max_temp_bed"],
        ),
        hardened_nozzle: flag(capabilities, &["hardened_nozzle", "nozzle_hardened"]),
        filament_diameter_mm: number(
            capabilities,
            &[
                "filament_diameter_mm",
                "filament_diameter",
                "filament_diameters",
            ],
        ),
    }
}

/// What a material type asks of a printer, named by the type's name.
pub fn material_needs(material: &MaterialTypeRow) -> MaterialNeeds {
    use bigdecimal::ToPrimitive;
    MaterialNeeds {
        material: Some(material.name.clone()),
        requires_enclosure: material.requires_enclosure,
        nozzle_temp_c: material.nozzle_temp_c,
        bed_temp_c: material.bed_temp_c,
        abrasive: material.is_abrasive,
        filament_diameter_mm: material.filament_diameter_mm.0.to_f64(),
    }
}

/// What a machine can do (from the printer's capabilities; resources have
/// default caps).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MachineCaps {
    /// Whether the build volume is enclosed (needed for warping materials).
    pub enclosed: bool,
    /// Hottest nozzle temperature; `None` = unknown, treated as no limit.
    pub max_nozzle_temp_c: Option<i32>,
    /// Hottest bed temperature; `None` = unknown, treated as no limit.
    pub max_bed_temp_c: Option<i32>,
    /// Whether the nozzle is hardened (abrasive filament); `None` = unknown.
    pub hardened_nozzle: Option<bool>,
    /// The filament diameter it takes, in mm; `None` = unknown.
    pub filament_diameter_mm: Option<f64>,
}

/// What an operation's material needs.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MaterialNeeds {
    /// Material name for messages; `None` reads as "the material".
    pub material: Option<String>,
    /// Whether the material must print in an enclosure.
    pub requires_enclosure: bool,
    /// Nozzle temperature the material needs, if any.
    pub nozzle_temp_c: Option<i32>,
    /// Bed temperature the material needs, if any.
    pub bed_temp_c: Option<i32>,
    /// Abrasive (carbon or glass filled): wears a brass nozzle, needs a hardened one.
    pub abrasive: bool,
    /// Filament diameter in mm, if known.
    pub filament_diameter_mm: Option<f64>,
}

crate::text_enum! {
    /// Which rule a compatibility finding is about.
    pub enum CompatCheck {
        /// The material needs an enclosure.
        Enclosure,
        /// The nozzle does not get hot enough.
        NozzleTemp,
        /// The bed does not get hot enough.
        BedTemp,
        /// The printer takes another filament diameter.
        Diameter,
        /// Abrasive filament on a nozzle that is not (known to be) hardened.
        HardenedNozzle,
    }
}

crate::text_enum! {
    /// How bad a compatibility finding is.
    pub enum Severity {
        /// The job cannot run there: starting or scheduling it is refused.
        Error,
        /// Worth a look (something is unknown).
        Warning,
    }
}

/// One finding of [`check`].
#[derive(Clone, Debug, PartialEq)]
pub struct CompatIssue {
    /// The rule.
    pub check: CompatCheck,
    /// Error or warning.
    pub severity: Severity,
    /// What is wrong, e.g. "ABS needs an enclosed printer".
    pub message: String,
}

/// Every finding of a material on a machine: errors for what cannot work (no enclosure,
/// too cold a nozzle or bed, another diameter, abrasive filament on a nozzle known not to be
/// hardened) and a warning for abrasive filament where the nozzle is unknown. Unknown limits
/// are no limit.
pub fn check(caps: &MachineCaps, needs: &MaterialNeeds) -> Vec<CompatIssue> {
    let name = needs
        .material
        .as_deref()
        .map(str::trim)
        .filter(|m| !m.is_empty())
        .unwrap_or("the material");
    let mut out = Vec::new();
    let mut add = |check, severity, message: String| {
        out.push(CompatIssue {
            check,
            severity,
            message,
        })
    };
    if needs.requires_enclosure && !caps.enclosed {
        add(
            CompatCheck::Enclosure,
            Severity::Error,
            format!("{name} needs an enclosed printer"),
        );
    }
    if let (Some(need), Some(max)) = (needs.nozzle_temp_c, caps.max_nozzle_temp_c)
        && need > max
    {
        add(
            CompatCheck::NozzleTemp,
            Severity::Error,
            format!("{name} needs a {need} °C nozzle; this printer reaches {max} °C"),
        );
    }
    if let (Some(need), Some(max)) = (needs.bed_temp_c, caps.max_bed_temp_c)
        && need > max
    {
        add(
            CompatCheck::BedTemp,
            Severity::Error,
            format!("{name} needs a {need} °C bed; this printer reaches {max} °C"),
        );
    }
    if let (Some(need), Some(takes)) = (needs.filament_diameter_mm, caps.filament_diameter_mm)
        && (need - takes).abs() > 0.01
    {
        add(
            CompatCheck::Diameter,
            Severity::Error,
            format!("{name} is {need} mm filament; this printer takes {takes} mm"),
        );
    }
    if needs.abrasive {
        match caps.hardened_nozzle {
            Some(false) => add(
                CompatCheck::HardenedNozzle,
                Severity::Error,
                format!("{name} is abrasive and needs a hardened nozzle; this printer's is not"),
            ),
            None => add(
                CompatCheck::HardenedNozzle,
                Severity::Warning,
                format!("{name} is abrasive; check that this printer has a hardened nozzle"),
            ),
            Some(true) => {}
        }
    }
    out
}

/// Ok, or the reason the material cannot run on the machine, e.g. "ABS
/// needs an enclosed printer", "PC needs a 300 °C nozzle; this printer
/// reaches 260 °C", likewise for the bed, the diameter and a hardened
/// nozzle. Warnings do not refuse. Several problems are all reported,
/// joined by "; ", so the user can fix them in one go.
pub fn compatible(caps: &MachineCaps, needs: &MaterialNeeds) -> Result<(), String> {
    let problems: Vec<String> = check(caps, needs)
        .into_iter()
        .filter(|i| i.severity == Severity::Error)
        .map(|i| i.message)
        .collect();
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("; "))
    }
}

/// The material type of each of these items that is a material of the catalogue (a
/// material type in a colour); other items are absent.
pub async fn material_types_of(
    conn: &mut AsyncPgConnection,
    items: &[i64],
) -> AppResult<HashMap<i64, MaterialTypeRow>> {
    let rows: Vec<(Option<i64>, MaterialTypeRow)> = material_colors::table
        .inner_join(material_types::table)
        .filter(material_colors::item_id.eq_any(items))
        .select((material_colors::item_id, MaterialTypeRow::as_select()))
        .load(conn)
        .await?;
    Ok(rows
        .into_iter()
        .filter_map(|(item, ty)| Some((item?, ty)))
        .collect())
}

/// What a job printing these materials needs: every need of every type at once (the
/// strictest temperature, any enclosure or abrasive), named by the first type.
pub fn combined_needs<'a>(types: impl IntoIterator<Item = &'a MaterialTypeRow>) -> MaterialNeeds {
    let mut out = MaterialNeeds::default();
    for t in types {
        let n = material_needs(t);
        out.material.get_or_insert(t.name.clone());
        out.requires_enclosure |= n.requires_enclosure;
        out.nozzle_temp_c = out.nozzle_temp_c.max(n.nozzle_temp_c);
        out.bed_temp_c = out.bed_temp_c.max(n.bed_temp_c);
        out.abrasive |= n.abrasive;
        out.filament_diameter_mm = out.filament_diameter_mm.or(n.filament_diameter_mm);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn models_decide_the_enclosure_when_the_capabilities_do_not() {
        for enclosed in [
            "X1C",
            "X1 Carbon",
            "X1-Carbon",
            "Bambu Lab X1E",
            "P1S",
            "P1S Combo",
            "H2D",
            "K1",
            "K1 Max",
            "k1max",
            "Creality K1C",
            "Prusa Core One",
            "CORE ONE",
        ] {
            assert!(
                machine_caps(&json!({}), enclosed).enclosed,
                "{enclosed} is enclosed"
            );
        }
        for open in [
            "A1",
            "A1 mini",
            "Bambu Lab A1 Mini",
            "P1P",
            "MK4",
            "Original Prusa MK3S+",
            "Ender 3 V2",
            "Ender-5",
            "",
            "Core",
            "One",
        ] {
            assert!(!machine_caps(&json!({}), open).enclosed, "{open} is open");
        }
    }

    #[test]
    fn the_capabilities_win_over_the_model() {
        assert!(!machine_caps(&json!({"enclosed": false}), "X1C").enclosed);
        assert!(machine_caps(&json!({"enclosed": true}), "A1").enclosed);
        assert!(machine_caps(&json!({"enclosure": true}), "MK4").enclosed);
        // `enclosed` is read before `enclosure`.
        assert!(!machine_caps(&json!({"enclosed": false, "enclosure": true}), "MK4").enclosed);
        // A value that is not a boolean counts as absent: the model decides.
        assert!(machine_caps(&json!({"enclosed": "yes"}), "P1S").enclosed);
        assert!(!machine_caps(&json!({"enclosed": null}), "A1").enclosed);
        // Not an object at all: the model decides, no temperatures.
        assert_eq!(
            machine_caps(&json!("X1C"), "X1C"),
            MachineCaps {
                enclosed: true,
                ..MachineCaps::default()
            }
        );
    }

    #[test]
    fn temperatures_come_from_either_key() {
        let caps = machine_caps(
            &json!({"max_nozzle_temp_c": 300, "max_bed_temp_c": 110}),
            "X1C",
        );
        assert_eq!(caps.max_nozzle_temp_c, Some(300));
        assert_eq!(caps.max_bed_temp_c, Some(110));
        let caps = machine_caps(
            &json!({"max_nozzle_temp": 260.5, "max_bed_temp": "100"}),
            "A1",
        );
        assert_eq!(caps.max_nozzle_temp_c, Some(260));
        assert_eq!(caps.max_bed_temp_c, Some(100));
        // The `_c` key wins; nonsense is unknown.
        let caps = machine_caps(
            &json!({"max_nozzle_temp_c": 280, "max_nozzle_temp": 999, "max_bed_temp": "hot"}),
            "A1",
        );
        assert_eq!(caps.max_nozzle_temp_c, Some(280));
        assert_eq!(caps.max_bed_temp_c, None);
        let caps = machine_caps(
            &json!({"max_nozzle_temp_c": -5, "max_bed_temp_c": true}),
            "A1",
        );
        assert_eq!((caps.max_nozzle_temp_c, caps.max_bed_temp_c), (None, None));
    }

    #[test]
    fn the_engine_reads_the_caps_against_material_needs() {
        let abs = MaterialTypeRow {
            id: 1,
            code: "ABS".into(),
            name: "ABS".into(),
            description: None,
            active: true,
            created_at: crate::platform::graphql::scalars::Timestamp(chrono::Utc::now()),
            updated_at: crate::platform::graphql::scalars::Timestamp(chrono::Utc::now()),
            requires_enclosure: true,
            nozzle_temp_c: Some(260),
            bed_temp_c: Some(100),
            density_g_cm3: None,
            filament_diameter_mm: crate::platform::graphql::scalars::Decimal(
                bigdecimal::BigDecimal::from(2),
            ),
            is_abrasive: false,
        };
        let needs = material_needs(&abs);
        assert!(compatible(&machine_caps(&json!({}), "X1 Carbon"), &needs).is_ok());
        let refused = compatible(
            &machine_caps(&json!({"max_nozzle_temp_c": 250}), "A1 mini"),
            &needs,
        )
        .expect_err("open and too cold");
        assert!(
            refused.contains("ABS needs an enclosed printer"),
            "{refused}"
        );
        assert!(refused.contains("250"), "{refused}");
    }
}
