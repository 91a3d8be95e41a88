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
