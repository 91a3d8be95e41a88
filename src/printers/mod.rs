//! Printers (CONTRACT 5.13).
