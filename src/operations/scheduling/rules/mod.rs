//! Every rule of the shop's machines outside the engine: resources ([`resources`]: codes,
//! names, capacity, their work center, what a delete may do), maintenance windows
//! ([`windows`]: one machine, a time range, what cancelling and completing do, the printer's
//! maintenance log) and working hours ([`hours`]: weekly periods and exceptions). The limits
//! they share are here.

pub mod hours;
pub mod resources;
pub mod windows;

pub use hours::{add_exception, delete_exception, set_weekly};
pub use resources::{delete_resource, save_resource};
pub use windows::{cancel_window, complete_window, create_window};

/// Longest resource code.
pub const CODE_MAX: usize = 50;
/// Longest resource name.
pub const NAME_MAX: usize = 200;
/// Longest machine type.
pub const MACHINE_TYPE_MAX: usize = 100;
/// Longest serial number.
pub const SERIAL_MAX: usize = 100;
/// Longest Bambu Lab device id.
pub const DEVICE_MAX: usize = 100;
/// Longest Bambu Lab IP address.
pub const IP_ADDRESS_MAX: usize = 50;
/// Most hours a day a resource can work.
pub const CAPACITY_MAX_HOURS: i64 = 24;
/// Longest reason of a maintenance window or an hours exception.
pub const REASON_MAX: usize = 255;
/// Longest "performed by" of a completed window's maintenance log.
pub const PERFORMED_BY_MAX: usize = crate::operations::printers::rules::PERFORMED_BY_MAX;
/// Minutes in a day: the latest closing minute.
pub const DAY_MINUTES: i32 = 1440;
