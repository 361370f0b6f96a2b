//! Project-wide metrics (docs/design.md §11): `GET /v1/metrics` answers from the
//! project object, never by asking every stream. Each stream's alarm sends
//! its project a compact [`snapshot::StreamSnapshot`] of its series when it
//! changed, at most once per [`crate::limits::METRICS_REPORT_INTERVAL_MS`]
//! ([`report::ReportClock`]); the project object keeps the latest one per
//! stream (`stream_metrics`, [`store`]) and renders them with `stream` and
//! `subscription` labels ([`render`]). Sources report their progress the
//! same way ([`sources`]). Delivery outcomes and latencies can also go to a
//! Workers Analytics Engine dataset ([`analytics`]).

pub mod analytics;
pub mod render;
pub mod report;
pub mod snapshot;
pub mod sources;
pub mod store;

pub use analytics::{AnalyticsSink, DeliveryDataPoint};
pub use report::{ReportClock, ReportDecision};
pub use snapshot::{StreamSnapshot, SubscriptionSnapshot};
