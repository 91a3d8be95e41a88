//! The shop schedule: machines (printers and resources) as lanes with their working hours,
//! maintenance windows and booked operations; booking, moving and auto-scheduling
//! operations on them. The rules themselves are the pure [`engine`].

pub mod engine;
