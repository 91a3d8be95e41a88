//! Scheduling (issue 32): the shop's machines as lanes (printers, and resources such as a
//! wash station or a UV cure), their work centers' working hours, maintenance windows that
//! block them, and the operations booked on them: booking, moving and auto-scheduling with
//! every rule checked by the pure [`engine`], and the board a Gantt view reads.
//!
//! What a printer can print: [`caps::machine_caps`].

pub mod caps;
pub mod engine;
