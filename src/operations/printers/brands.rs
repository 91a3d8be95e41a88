//! Static facts per printer brand (CONTRACT 5.13, `GET /printers/brands/info`): how Strata
//! would talk to each brand and what a printer of it needs to be connected. One entry per
//! [`PrinterBrand`] value, so a new brand cannot be left out (the match is exhaustive).

use async_graphql::{Object, SimpleObject};

use crate::operations::printers::model::PrinterBrand;
use crate::platform::auth::Access;

/// What is known about one brand.
#[derive(Debug, Clone, SimpleObject)]
pub struct PrinterBrandInfo {
    /// The brand value used on printers.
    pub code: PrinterBrand,
    /// Display name.
    pub name: &'static str,
    /// The protocol its printers speak on the network (`mqtt`, `http`; `none` for generic).
    pub protocol: &'static str,
    /// The usual port of that protocol on the printer, when there is one.
    pub default_port: Option<i32>,
    /// Whether its printers can carry an automatic material system.
    pub supports_ams: bool,
    /// Whether its printers usually have a camera reachable over the network.
    pub supports_camera: bool,
    /// The `connection_config` keys a printer of this brand needs.
    pub connection_fields: Vec<&'static str>,
    /// One line of guidance for the setup form.
    pub description: &'static str,
    /// The models of the brand the setup form offers (discontinued ones last).
    pub models: Vec<PrinterModelInfo>,
}

/// A printer model the setup form offers.
#[derive(Debug, Clone, SimpleObject)]
pub struct PrinterModelInfo {
    /// The value stored as the printer's model.
    pub value: &'static str,
    /// What the form shows.
    pub label: &'static str,
    /// No longer sold.
    pub discontinued: bool,
    /// Its build volume and enclosure, when known.
    pub capabilities: Option<ModelCapabilities>,
}

/// What a model can print.
#[derive(Debug, Clone, SimpleObject)]
pub struct ModelCapabilities {
    /// Build plate width (mm).
    pub bed_width_mm: i32,
    /// Build plate depth (mm).
    pub bed_depth_mm: i32,
    /// Build height (mm).
    pub bed_height_mm: i32,
    /// Whether the build volume is enclosed (`compat::enclosed_model`, the rule the
    /// scheduler uses).
    pub has_enclosure: bool,
    /// Hottest nozzle temperature (°C).
    pub nozzle_temp_max_c: i32,
}

/// A model with its build volume (width, depth, height in mm), hottest nozzle and whether
/// it is discontinued.
type ModelFacts = (&'static str, &'static str, (i32, i32, i32), i32, bool);

/// The models of a brand.
fn models(brand: PrinterBrand) -> Vec<PrinterModelInfo> {
    let facts: &[ModelFacts] = match brand {
        PrinterBrand::Bambulab => &[
            ("H2D", "H2D", (325, 320, 325), 350, false),
            ("H2S", "H2S", (340, 320, 340), 350, false),
            ("P2S", "P2S", (256, 256, 256), 300, false),
            ("P1S", "P1S", (256, 256, 256), 300, false),
            ("P1P", "P1P", (256, 256, 256), 300, false),
            ("A1", "A1", (256, 256, 256), 300, false),
            ("A1 Mini", "A1 Mini", (180, 180, 180), 300, false),
            ("X1C", "X1 Carbon", (256, 256, 256), 300, true),
            ("X1E", "X1E", (256, 256, 256), 320, true),
        ],
        PrinterBrand::Klipper => &[
            ("Voron 2.4", "Voron 2.4 (350)", (350, 350, 340), 300, false),
            (
                "Voron Trident",
                "Voron Trident (300)",
                (300, 300, 250),
                300,
                false,
            ),
            (
                "RatRig V-Core 4",
                "RatRig V-Core 4 (400)",
                (400, 400, 400),
                300,
                false,
            ),
        ],
        PrinterBrand::Octoprint | PrinterBrand::Generic => &[
            ("Ender 3", "Creality Ender 3", (220, 220, 250), 260, false),
            (
                "Ender 3 V2",
                "Creality Ender 3 V2",
                (220, 220, 250),
                260,
                false,
            ),
            ("CR-10", "Creality CR-10", (300, 300, 400), 260, false),
            (
                "Anycubic Kobra",
                "Anycubic Kobra",
                (220, 220, 250),
                260,
                false,
            ),
            ("Custom", "Custom / DIY", (0, 0, 0), 0, false),
        ],
        PrinterBrand::Prusa => &[
            ("Core One", "Prusa Core One", (250, 220, 270), 290, false),
            ("MK4S", "Original Prusa MK4S", (250, 210, 220), 290, false),
            ("MINI+", "Original Prusa MINI+", (180, 180, 180), 280, false),
            ("XL", "Prusa XL", (360, 360, 360), 290, false),
            ("MK3S+", "Original Prusa MK3S+", (250, 210, 210), 300, true),
        ],
        PrinterBrand::Creality => &[
            ("K2 Plus", "Creality K2 Plus", (350, 350, 350), 350, false),
            ("K1C", "Creality K1C", (220, 220, 250), 300, false),
            ("K1 Max", "Creality K1 Max", (300, 300, 300), 300, false),
            (
                "Ender-3 V3",
                "Creality Ender-3 V3",
                (220, 220, 250),
                300,
                false,
            ),
        ],
    };
    let mut out: Vec<PrinterModelInfo> = facts
        .iter()
        .map(
            |&(value, label, (w, d, h), nozzle, discontinued)| PrinterModelInfo {
                value,
                label,
                discontinued,
                capabilities: (w > 0).then(|| ModelCapabilities {
                    bed_width_mm: w,
                    bed_depth_mm: d,
                    bed_height_mm: h,
                    has_enclosure: crate::operations::printers::compat::enclosed_model(label),
                    nozzle_temp_max_c: nozzle,
                }),
            },
        )
        .collect();
    out.sort_by_key(|m| m.discontinued);
    out
}

/// All brands, in the enum's order.
pub const BRANDS: [PrinterBrand; 6] = [
    PrinterBrand::Bambulab,
    PrinterBrand::Klipper,
    PrinterBrand::Octoprint,
    PrinterBrand::Prusa,
    PrinterBrand::Creality,
    PrinterBrand::Generic,
];

/// The facts for one brand.
pub fn info(brand: PrinterBrand) -> PrinterBrandInfo {
    let (
        name,
        protocol,
        default_port,
        supports_ams,
        supports_camera,
        connection_fields,
        description,
    ) = match brand {
        PrinterBrand::Bambulab => (
            "Bambu Lab",
            "mqtt",
            Some(8883),
            true,
            true,
            vec!["ip_address", "serial_number", "access_code"],
            "LAN mode over MQTT (TLS); the access code is on the printer's screen",
        ),
        PrinterBrand::Klipper => (
            "Klipper (Moonraker)",
            "http",
            Some(7125),
            false,
            true,
            vec!["ip_address", "port", "api_key"],
            "Moonraker's HTTP API; the API key only when Moonraker requires one",
        ),
        PrinterBrand::Octoprint => (
            "OctoPrint",
            "http",
            Some(80),
            false,
            true,
            vec!["ip_address", "port", "api_key"],
            "OctoPrint's REST API with an application key",
        ),
        PrinterBrand::Prusa => (
            "Prusa (PrusaLink)",
            "http",
            Some(80),
            false,
            false,
            vec!["ip_address", "api_key"],
            "PrusaLink on the local network with its API key",
        ),
        PrinterBrand::Creality => (
            "Creality",
            "http",
            Some(7125),
            false,
            true,
            vec!["ip_address", "port"],
            "Klipper-based models (K1, K2) through Moonraker; older models are generic",
        ),
        PrinterBrand::Generic => (
            "Generic",
            "none",
            None,
            false,
            false,
            vec![],
            "Tracked by hand: no network connection",
        ),
    };
    PrinterBrandInfo {
        code: brand,
        name,
        protocol,
        default_port,
        supports_ams,
        supports_camera,
        connection_fields,
        description,
        models: models(brand),
    }
}

/// Printer brand queries.
#[derive(Default)]
pub struct PrinterBrandsQuery;

#[Object]
impl PrinterBrandsQuery {
    /// Facts per printer brand (any signed-in user).
    #[graphql(guard = "Access::User")]
    async fn printer_brands(&self) -> Vec<PrinterBrandInfo> {
        BRANDS.into_iter().map(info).collect()
    }
}
