//! Scheduling (issue 32): the shop's machines as lanes (printers, and resources such as a
//! wash station or a UV cure), their work centers' working hours, maintenance windows that
//! block them, and the operations booked on them: booking, moving and auto-scheduling with
//! every rule checked by the pure [`engine`], and the board a Gantt view reads.
//!
//! The machine master data around the engine: resources ([`model`]), maintenance windows
//! ([`windows`]), working hours ([`hours`], with [`hours::calendars`] building the engine's
//! calendars) and what a printer can print ([`crate::operations::printers::compat::machine_caps`]). Their rules are in
//! [`rules`], GraphQL fields in [`graphql`], REST declarations in [`rest`].
//!
//! The schedule itself: the shop read as lanes ([`lanes`]), bookings and moves
//! ([`booking`]), auto-scheduling and dispatch ([`auto`]), the board and the capacity
//! questions ([`board`]), their GraphQL fields in [`planner`].

pub mod auto;
pub mod board;
pub mod booking;
pub mod engine;
pub mod graphql;
pub mod hours;
pub mod lanes;
pub mod model;
pub mod planner;
pub mod rest;
pub mod rules;
pub mod windows;
