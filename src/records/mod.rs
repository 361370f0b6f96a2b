//! Typed records (issue 19 "Typed records"): one file per persisted or
//! reduced record, each with its encode/decode and a property test that it
//! round-trips. Stored formats (SQLite columns, the reduced-state JSON) are
//! exactly what they were; these types only name them.
//!
//! - [`run_stamp`]: the stamp of a delivery run (§6 rule 7, §7), ordered
//!   numerically (lifetime as a time, then the config generation).
//! - [`fence`]: the inbound fence record a receiving stream reduces from its
//!   committed copies (§5 inbound, §7 rule 2), a row of `inbound_fences`.
//! - [`runtime_row`]: a row of `subscription_runtime` (§6), decoded by
//!   column name.
//! - [`gate_hit`]: a row of `gate_hits` (§13 Gates).
//! - [`journal_row`]: a row of `delivery_journal` (§13).
//! - [`event_row`]: a row of `events` (§3), decoded by column name.
//! - [`secret_row`]: a row of the project object's `secrets` (§9), and
//!   the summary its listing reads (never the value).
//! - [`window_slot`]: a row of `delivery_window` (§8 `concurrency`), one
//!   event a concurrent subscription planned past its cursor.

pub(crate) mod columns;
pub mod event_row;
pub mod fence;
pub mod gate_hit;
pub mod journal_row;
pub mod run_stamp;
pub mod runtime_row;
pub mod secret_row;
pub mod window_slot;

pub use fence::{FenceRow, InboundFence};
pub use gate_hit::GateHit;
pub use journal_row::Journaled;
pub use run_stamp::RunStamp;
pub use runtime_row::RuntimeRow;
pub use secret_row::{SecretRow, SecretSummary};
pub use window_slot::WindowSlot;
