//! The project's scrape (§11): every stored snapshot in Prometheus text
//! format 0.0.4, one family at a time (`# HELP`, `# TYPE`, then its samples
//! for every stream), each sample labelled with its `stream` (and
//! `subscription`, and `outcome`). Label values are escaped per the format
//! (`\\`, `\"`, `\n`), so no path or key can break a line or a label.

use super::snapshot::{StreamSnapshot, SUBSCRIPTION_SERIES};
use super::sources::{SourceSnapshot, SOURCE_SERIES};
use crate::stream::metrics::{SeriesDef, STREAM_SERIES};
use std::fmt::Write;

/// What one scrape shows: the snapshots it renders, and how many streams it
/// left out past its bounds.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Scrape {
    pub snapshots: Vec<StreamSnapshot>,
    pub omitted_streams: u64,
    /// Soft-deleted streams the catalog lists apart (§18): no series of
    /// theirs is rendered.
    pub soft_deleted_streams: u64,
    /// Each source's progress (§15), labelled `source`.
    pub sources: Vec<SourceSnapshot>,
}

/// A label value, escaped per the text format.
pub fn escape_label(value: &str) -> String {
    let mut escaped = String::with_capacity(value.len());
    for character in value.chars() {
        match character {
            '\\' => escaped.push_str("\\\\"),
            '"' => escaped.push_str("\\\""),
            '\n' => escaped.push_str("\\n"),
            other => escaped.push(other),
        }
    }
    escaped
}

fn family_header(text: &mut String, def: &SeriesDef) {
    let _ = writeln!(
        text,
        "# HELP tributary_{name} {help}\n# TYPE tributary_{name} {kind}",
        name = def.name,
        help = def.help,
        kind = def.kind
    );
}

impl Scrape {
    /// The Prometheus text of the scrape.
    pub fn render(&self) -> String {
        let mut text = String::new();
        self.render_streams(&mut text);
        self.render_subscriptions(&mut text);
        self.render_sources(&mut text);
        let reported = SeriesDef {
            name: "metrics_streams_reported",
            kind: "gauge",
            help: "Streams whose latest report this scrape shows (§11).",
        };
        let omitted = SeriesDef {
            name: "metrics_streams_omitted",
            kind: "gauge",
            help: "Streams left out past the scrape's bounds (§12): scrape them by ?prefix=.",
        };
        let soft_deleted = SeriesDef {
            name: "metrics_streams_soft_deleted",
            kind: "gauge",
            help: "Streams deleted while forks still read them, their data kept until the last fork is gone (§18); none of their series is shown.",
        };
        for (def, value) in [
            (reported, self.snapshots.len() as u64),
            (omitted, self.omitted_streams),
            (soft_deleted, self.soft_deleted_streams),
        ] {
            family_header(&mut text, &def);
            let _ = writeln!(text, "tributary_{} {value}", def.name);
        }
        text
    }

    /// One family per stream series, one sample per stream that has it.
    fn render_streams(&self, text: &mut String) {
        for (index, def) in STREAM_SERIES.iter().enumerate() {
            let mut samples = self
                .snapshots
                .iter()
                .filter_map(|snapshot| snapshot.values.get(index).map(|value| (snapshot, value)))
                .peekable();
            if samples.peek().is_none() {
                continue;
            }
            family_header(text, def);
            for (snapshot, value) in samples {
                let _ = writeln!(
                    text,
                    "tributary_{}{{stream=\"{}\"}} {value}",
                    def.name,
                    escape_label(&snapshot.path)
                );
            }
        }
    }

    /// One family per source series, one sample per source that has it.
    fn render_sources(&self, text: &mut String) {
        for (index, (def, _)) in SOURCE_SERIES.iter().enumerate() {
            let mut samples = self
                .sources
                .iter()
                .filter_map(|source| source.values.get(index).copied().flatten().map(|value| (source, value)))
                .peekable();
            if samples.peek().is_none() {
                continue;
            }
            family_header(text, def);
            for (source, value) in samples {
                let _ = writeln!(
                    text,
                    "tributary_{}{{source=\"{}\"}} {value}",
                    def.name,
                    escape_label(&source.name)
                );
            }
        }
    }

    /// One family per subscription series (an `outcome` family spans its
    /// consecutive entries), one sample per subscription and outcome.
    fn render_subscriptions(&self, text: &mut String) {
        let mut start = 0;
        // Each pass takes one family: at most as many passes as entries.
        for _family in 0..SUBSCRIPTION_SERIES.len() {
            let Some(first) = SUBSCRIPTION_SERIES.get(start) else {
                return;
            };
            let end = SUBSCRIPTION_SERIES
                .iter()
                .skip(start)
                .position(|series| series.def.name != first.def.name)
                .map_or(SUBSCRIPTION_SERIES.len(), |offset| start + offset);
            let mut header = Some(first.def);
            for snapshot in &self.snapshots {
                let stream = escape_label(&snapshot.path);
                for subscription in &snapshot.subscriptions {
                    let key = escape_label(&subscription.key);
                    for index in start..end {
                        let (Some(series), Some(value)) =
                            (SUBSCRIPTION_SERIES.get(index), subscription.values.get(index))
                        else {
                            continue;
                        };
                        if let Some(def) = header.take() {
                            family_header(text, &def);
                        }
                        let outcome = series
                            .outcome
                            .map(|outcome| format!(",outcome=\"{outcome}\""))
                            .unwrap_or_default();
                        let _ = writeln!(
                            text,
                            "tributary_{}{{stream=\"{stream}\",subscription=\"{key}\"{outcome}}} {value}",
                            series.def.name
                        );
                    }
                }
            }
            start = end;
        }
    }
}

#[cfg(test)]
#[allow(clippy::panic, clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;
    use crate::project_metrics::snapshot::{SubscriptionSnapshot, SUBSCRIPTION_SERIES_COUNT};
    use crate::stream::metrics::STREAM_SERIES_COUNT;

    fn snapshot(path: &str, key: &str, base: u64) -> StreamSnapshot {
        StreamSnapshot {
            path: path.to_owned(),
            stream_id: format!("id-{base}"),
            values: (0..STREAM_SERIES_COUNT as u64).map(|i| base + i).collect(),
            subscriptions: vec![SubscriptionSnapshot {
                key: key.to_owned(),
                values: (0..SUBSCRIPTION_SERIES_COUNT as u64).map(|i| base * 100 + i).collect(),
            }],
        }
    }

    #[test]
    fn label_values_escape_backslash_quote_and_newline() {
        assert_eq!(escape_label(r#"a\b"c"#), r#"a\\b\"c"#);
        assert_eq!(escape_label("x\ny"), "x\\ny");
        assert_eq!(escape_label("plain/é"), "plain/é");
    }

    #[test]
    fn each_family_has_one_header_and_every_stream_s_sample() {
        let scrape = Scrape {
            snapshots: vec![snapshot("/a", "k1", 1), snapshot("/b", "k2", 2)],
            omitted_streams: 3,
            soft_deleted_streams: 4,
            sources: vec![SourceSnapshot {
                name: "usdc".to_owned(),
                values: vec![Some(10), None],
            }],
        };
        let text = scrape.render();
        assert_eq!(text.matches("# TYPE tributary_appends_total counter\n").count(), 1);
        let appends = STREAM_SERIES
            .iter()
            .position(|def| def.name == "appends_total")
            .unwrap() as u64;
        assert!(text.contains(&format!("tributary_appends_total{{stream=\"/a\"}} {}\n", 1 + appends)));
        assert!(text.contains(&format!("tributary_appends_total{{stream=\"/b\"}} {}\n", 2 + appends)));
        assert_eq!(
            text.matches("# TYPE tributary_subscription_deliveries_total counter\n")
                .count(),
            1
        );
        assert!(text.contains(
            "tributary_subscription_deliveries_total{stream=\"/a\",subscription=\"k1\",outcome=\"delivered\"} 100\n"
        ));
        assert!(text.contains(
            "tributary_subscription_deliveries_total{stream=\"/b\",subscription=\"k2\",outcome=\"stale\"} 204\n"
        ));
        assert!(text.contains("tributary_subscription_lag{stream=\"/b\",subscription=\"k2\"} 205\n"));
        assert!(text.ends_with("tributary_metrics_streams_reported 2\n# HELP tributary_metrics_streams_omitted Streams left out past the scrape's bounds (§12): scrape them by ?prefix=.\n# TYPE tributary_metrics_streams_omitted gauge\ntributary_metrics_streams_omitted 3\n# HELP tributary_metrics_streams_soft_deleted Streams deleted while forks still read them, their data kept until the last fork is gone (§18); none of their series is shown.\n# TYPE tributary_metrics_streams_soft_deleted gauge\ntributary_metrics_streams_soft_deleted 4\n"));
    }

    #[test]
    fn samples_of_a_family_are_contiguous_under_its_header() {
        let scrape = Scrape {
            snapshots: vec![snapshot("/a", "k1", 1), snapshot("/b", "k2", 2)],
            ..Scrape::default()
        };
        let mut seen: Vec<String> = Vec::new();
        for line in scrape.render().lines().filter(|line| !line.starts_with('#')) {
            let family = line.split(['{', ' ']).next().unwrap().to_owned();
            if seen.last() != Some(&family) {
                assert!(!seen.contains(&family), "{family} split in two");
                seen.push(family);
            }
        }
    }

    #[test]
    fn hostile_paths_and_keys_stay_inside_their_label() {
        let scrape = Scrape {
            snapshots: vec![snapshot("/a\"} 1\nevil{x=\"", "k\\\"\n", 1)],
            ..Scrape::default()
        };
        let text = scrape.render();
        for line in text.lines().filter(|line| !line.starts_with('#')) {
            assert!(line.starts_with("tributary_"), "{line}");
            assert!(!line.contains("\nevil"), "{line}");
        }
        assert!(text.contains(r#"stream="/a\"} 1\nevil{x=\"""#), "{text}");
        assert!(text.contains(r#"subscription="k\\\"\n""#), "{text}");
    }

    #[test]
    fn a_snapshot_with_fewer_values_renders_the_ones_it_has() {
        let mut old = snapshot("/old", "k", 1);
        old.values.truncate(1);
        old.subscriptions[0].values.truncate(0);
        let text = Scrape {
            snapshots: vec![old],
            ..Scrape::default()
        }
        .render();
        assert_eq!(
            text.lines()
                .filter(|line| line.starts_with("tributary_") && line.contains("/old"))
                .count(),
            1
        );
        assert!(!text.contains("subscription_lag"));
    }
}
