//! Printer and material compatibility, the one place its rules live: what a printer can
//! print ([`machine_caps`], from its capabilities JSON and model), what a material needs
//! ([`material_needs`], from its material type), and whether the two fit ([`compatible`]).
//! The scheduler books against them, and production checks them when an operation is
//! started on a printer and when an order's compatibility is asked.

use serde_json::Value;

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

/// What a printer can print, from its capabilities JSON: `enclosed` (or `enclosure`) as a
/// boolean, `max_nozzle_temp_c` (or `max_nozzle_temp`) and `max_bed_temp_c` (or
/// `max_bed_temp`) in °C. Without an enclosure key the model name decides (X1 Carbon, X1E,
/// P1S, H2D, K1, K1 Max, Core One... are enclosed; A1, P1P, MK4, Ender... are not). A
/// missing temperature is unknown, which the engine reads as no limit.
pub fn machine_caps(capabilities: &Value, model: &str) -> MachineCaps {
    MachineCaps {
        enclosed: flag(capabilities, &["enclosed", "enclosure"])
            .unwrap_or_else(|| enclosed_model(model)),
        max_nozzle_temp_c: temperature(capabilities, &["max_nozzle_temp_c", "max_nozzle_temp"]),
        max_bed_temp_c: temperature(capabilities, &["max_bed_temp_c", "max_bed_temp"]),
    }
}

/// What a material type asks of a printer, named by the type's name.
pub fn material_needs(material: &MaterialTypeRow) -> MaterialNeeds {
    MaterialNeeds {
        material: Some(material.name.clone()),
        requires_enclosure: material.requires_enclosure,
        nozzle_temp_c: material.nozzle_temp_c,
        bed_temp_c: material.bed_temp_c,
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
}

/// Ok, or the reason the material cannot run on the machine, e.g. "ABS
/// needs an enclosed printer", "PC needs a 300 °C nozzle; this printer
/// reaches 260 °C", likewise for the bed. Unknown max = no limit; no
/// material name → "the material". Several problems are all reported,
/// joined by "; ", so the user can fix them in one go.
pub fn compatible(caps: &MachineCaps, needs: &MaterialNeeds) -> Result<(), String> {
    let name = needs
        .material
        .as_deref()
        .map(str::trim)
        .filter(|m| !m.is_empty())
        .unwrap_or("the material");
    let mut problems = Vec::new();
    if needs.requires_enclosure && !caps.enclosed {
        problems.push(format!("{name} needs an enclosed printer"));
    }
    if let (Some(need), Some(max)) = (needs.nozzle_temp_c, caps.max_nozzle_temp_c)
        && need > max
    {
        problems.push(format!(
            "{name} needs a {need} °C nozzle; this printer reaches {max} °C"
        ));
    }
    if let (Some(need), Some(max)) = (needs.bed_temp_c, caps.max_bed_temp_c)
        && need > max
    {
        problems.push(format!(
            "{name} needs a {need} °C bed; this printer reaches {max} °C"
        ));
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("; "))
    }
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
                max_nozzle_temp_c: None,
                max_bed_temp_c: None
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
