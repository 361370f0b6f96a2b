//! The `METRICS` Workers Analytics Engine dataset (docs/design.md §11): the
//! engine's [`AnalyticsSink`] over the binding. Writing a data point is
//! fire-and-forget on the platform; a failure is logged, never retried (the
//! Prometheus counters are the durable view), and the lines logged are
//! kept for the alarm's log budget (§12).

use tributary::project_metrics::{AnalyticsSink, DeliveryDataPoint};
use worker::{AnalyticsEngineDataPointBuilder, AnalyticsEngineDataset};

/// The binding's name in `wrangler.toml` (`[[analytics_engine_datasets]]`).
pub const METRICS_BINDING: &str = "METRICS";

pub struct Dataset<'a> {
    pub dataset: &'a AnalyticsEngineDataset,
    /// The lines this sink logged.
    pub logged: Vec<String>,
}

impl AnalyticsSink for Dataset<'_> {
    fn write(&mut self, point: DeliveryDataPoint) {
        let data_point = AnalyticsEngineDataPointBuilder::new()
            .indexes([point.index.as_str()])
            .doubles(point.doubles)
            .blobs(point.blobs)
            .build();
        if let Err(error) = self.dataset.write_data_point(&data_point) {
            let line = serde_json::json!({"event": "analytics_write_failed", "error": error.to_string()}).to_string();
            worker::console_log!("{line}");
            self.logged.push(line);
        }
    }
}
