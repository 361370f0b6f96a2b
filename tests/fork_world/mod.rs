//! A small world of streams on real SQLite and a shell that does what the
//! stream object does between them (docs/design.md §18): asks a source for
//! its grant, reads a prefix page by page through a chain, sends the
//! releases a deleted fork owes, and runs a fork's delivery turns, fetching
//! the inherited pages its subscriptions wait for.
#![allow(
    dead_code,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use crate::common::{self, inputs, memory_stream};
use std::collections::BTreeMap;
use tributary::delivery::{DeliveryPlan, Outcome, Turn};
use tributary::durable_streams::face::{Continued, Inherited, Method, ProtocolAnswer, ProtocolRequest, Then};
use tributary::fork::inherited::InheritedPage;
use tributary::fork::segment::Segment;
use tributary::fork::store as fork_store;
use tributary::limits::{ALARM_RETRY_MS, MAX_INHERITED_FETCHES_PER_TURN};
use tributary::limits::{MAX_FORK_HOPS, MAX_FORK_READ_SEGMENTS, MAX_READ_BYTES};
use tributary::path::StreamPath;
use tributary::storage::rusqlite_driver::RusqliteStorage;
use tributary::stream::Stream;

/// The streams of one project, by path, and what the shell would do.
pub struct World {
    pub streams: BTreeMap<String, Stream<RusqliteStorage>>,
    pub now_ms: i64,
    pub seed: u8,
    /// A crash after the source's grant and before the fork's creation.
    pub crash_after_grant: bool,
    /// The next inherited page fetches fail (the source cannot be reached).
    pub unreachable_sources: u32,
    /// The delivering object dies after this many more sends left it
    /// (each planned, in flight, never completed).
    pub crash_after_sends: Option<usize>,
}

impl World {
    pub fn new() -> World {
        World {
            streams: BTreeMap::new(),
            now_ms: 1_000_000,
            seed: 1,
            crash_after_grant: false,
            unreachable_sources: 0,
            crash_after_sends: None,
        }
    }

    pub fn stream(&mut self, path: &str) -> &mut Stream<RusqliteStorage> {
        self.streams
            .entry(path.to_owned())
            .or_insert_with(|| memory_stream(path))
    }

    pub fn tick(&mut self) -> tributary::Inputs {
        self.now_ms += 10;
        self.seed = self.seed.wrapping_add(1);
        inputs(self.now_ms, self.seed)
    }

    /// One protocol request, as `stream_object/protocol.rs` serves it.
    pub fn call(
        &mut self,
        path: &str,
        method: Method,
        query: &str,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> ProtocolAnswer {
        let headers: Vec<(String, String)> = headers
            .iter()
            .map(|(n, v)| ((*n).to_owned(), (*v).to_owned()))
            .collect();
        let location = format!("https://t.test/v1/stream{path}");
        let mut grant = None;
        let mut inherited: Option<Inherited> = None;
        for _ in 0..4 {
            let inputs = self.tick();
            let continued = match (&grant, &inherited) {
                (Some(grant), _) => Some(Continued::Granted(grant)),
                (None, Some(page)) => Some(Continued::Inherited(page)),
                _ => None,
            };
            let request = ProtocolRequest {
                method,
                query,
                headers: &headers,
                body,
                location: &location,
                resumed: None,
                continued,
            };
            let answer = self.stream(path).protocol(&request, &inputs);
            match answer.then.clone() {
                Then::AcquireFork { source, ask } => {
                    let granted = self.stream(source.as_str()).grant_fork(&ask);
                    match granted {
                        Ok(granted) if self.crash_after_grant => {
                            let _ = granted;
                            // The fork's instance dies here: only its storage stays.
                            let storage = self.streams.remove(path).unwrap().into_storage();
                            self.streams.insert(
                                path.to_owned(),
                                Stream::open(storage, common::PROJECT, StreamPath::parse(path).unwrap()).unwrap(),
                            );
                            return ProtocolAnswer::new(500, Vec::new(), Vec::new());
                        }
                        Ok(granted) => grant = Some(granted),
                        Err(tributary::fork::GrantError::Refused(refusal)) => {
                            return ProtocolAnswer::refusal(refusal, Vec::new());
                        }
                        Err(error) => panic!("grant: {error}"),
                    }
                }
                Then::ReadInherited { source, after, through } => {
                    let json = self.stream(path).protocol_is_json().unwrap();
                    inherited = Some(self.read_prefix(&source, after, through, json));
                }
                _ => {
                    self.send_releases(path);
                    return answer;
                }
            }
        }
        panic!("the request asked too often");
    }

    /// `forks::read_prefix`: pages of the source, each descending the chain.
    pub fn read_prefix(&mut self, source: &StreamPath, after: u64, through: u64, json: bool) -> Inherited {
        let mut gathered = Inherited {
            body: if json { b"[]".to_vec() } else { Vec::new() },
            next: after,
            any: false,
        };
        for _ in 0..MAX_FORK_READ_SEGMENTS {
            if gathered.next >= through || gathered.body.len() >= MAX_READ_BYTES {
                break;
            }
            let room = MAX_READ_BYTES.saturating_sub(gathered.body.len());
            let page = self.read_page(source.as_str(), gathered.next, through, 1, room);
            let advanced = page.next > gathered.next;
            gathered = gathered.then(page, json);
            if !advanced {
                break;
            }
        }
        gathered
    }

    pub fn read_page(&mut self, source: &str, after: u64, through: u64, hops: u64, max_bytes: usize) -> Inherited {
        assert!(hops <= MAX_FORK_HOPS, "a read crossed more forks than its budget");
        match self
            .stream(source)
            .inherited_segment(after, through, max_bytes)
            .unwrap()
        {
            Segment::Local(page) => page,
            Segment::Deeper(range) => {
                self.read_page(range.source.as_str(), range.after, range.through, hops + 1, max_bytes)
            }
        }
    }

    /// `forks::send_releases`, cascading as the source's own answer does.
    pub fn send_releases(&mut self, path: &str) {
        let now = self.now_ms;
        let owed = fork_store::release_turn(self.stream(path).storage(), now, 100)
            .unwrap()
            .map(|turn| turn.owed)
            .unwrap_or_default();
        for release in owed {
            self.stream(&release.source_path)
                .release_fork(&release.fork_path, release.source_stream_id.as_deref())
                .unwrap();
            fork_store::released(self.stream(path).storage(), &release.source_path, &release.fork_path).unwrap();
            self.send_releases(&release.source_path.clone());
        }
    }

    pub fn text(&mut self, path: &str, query: &str) -> (u16, String) {
        let answer = self.call(path, Method::Get, query, &[], b"");
        (answer.status, String::from_utf8(answer.body).unwrap())
    }

    pub fn edges(&mut self, path: &str) -> u64 {
        fork_store::edges(self.stream(path).storage()).unwrap().0
    }

    /// One alarm turn of `path`'s delivery as `stream_object/delivery.rs`
    /// runs it: plan what is due, send each plan through `receive`, complete
    /// it; when a fork's scan waits for an inherited page, fetch it (at most
    /// [`MAX_INHERITED_FETCHES_PER_TURN`]) and plan again. Returns the plans sent.
    pub fn delivery_turn(
        &mut self,
        path: &str,
        receive: &mut dyn FnMut(&DeliveryPlan) -> Outcome,
    ) -> Vec<DeliveryPlan> {
        let now = self.now_ms;
        let mut turn = Turn::begin(now);
        let mut sent = Vec::new();
        let mut fetches = 0;
        for _round in 0..10_000 {
            let entropy = self.tick().entropy;
            let plans = turn.plan_due(self.stream(path), now, entropy).unwrap();
            let planned_any = !plans.is_empty();
            for plan in plans {
                if self.crash_after_sends == Some(0) {
                    // The instance dies with this send in flight: only storage stays.
                    self.crash_after_sends = None;
                    self.restart(path);
                    return sent;
                }
                self.crash_after_sends = self.crash_after_sends.map(|left| left - 1);
                let outcome = plan.prepared_failure.clone().unwrap_or_else(|| receive(&plan));
                turn.complete(self.stream(path), &plan, outcome, now, entropy).unwrap();
                sent.push(plan);
            }
            if fetches < MAX_INHERITED_FETCHES_PER_TURN && turn.has_subrequest() {
                if let Some(want) = self.stream(path).take_inherited_want().unwrap() {
                    fetches += 1;
                    turn.charge_subrequest();
                    if self.unreachable_sources > 0 {
                        self.unreachable_sources -= 1;
                        self.stream(path).inherited_unavailable(now + ALARM_RETRY_MS);
                    } else {
                        let page = self.inherited_page(want.source.as_str(), want.after, want.through, 1);
                        self.stream(path).hold_inherited(page, now);
                        continue;
                    }
                }
            }
            if !planned_any {
                return sent;
            }
        }
        panic!("a delivery turn that never ends");
    }

    /// `serve_page::<EventPages>`: a page of data events, descending the chain.
    pub fn inherited_page(&mut self, source: &str, after: u64, through: u64, hops: u64) -> InheritedPage {
        assert!(hops <= MAX_FORK_HOPS, "a page crossed more forks than its budget");
        match self.stream(source).inherited_events(after, through).unwrap() {
            Segment::Local(page) => page,
            Segment::Deeper(range) => self.inherited_page(range.source.as_str(), range.after, range.through, hops + 1),
        }
    }

    /// Delivery turns of `path` until nothing is due (at most `turns`), the
    /// clock moving to the next due time plus `step_ms` between them.
    pub fn deliver_all(
        &mut self,
        path: &str,
        step_ms: i64,
        turns: usize,
        receive: &mut dyn FnMut(&DeliveryPlan) -> Outcome,
    ) -> Vec<DeliveryPlan> {
        let mut sent = Vec::new();
        for _ in 0..turns {
            sent.extend(self.delivery_turn(path, receive));
            match self.stream(path).next_due_at().unwrap() {
                None => return sent,
                Some(at) => self.now_ms = self.now_ms.max(at) + step_ms,
            }
        }
        panic!("delivery still due after {turns} turns");
    }

    /// A native range read as `stream_object/inherited.rs` serves it: below
    /// a fork's point, one source page fetched first.
    pub fn native_read(&mut self, path: &str, query: &str) -> tributary::stream::read::RangeRead {
        let query = tributary::stream::RangeQuery::parse(query).unwrap();
        match self.stream(path).range_read_want(&query).unwrap() {
            Some(want) => {
                let page = self.inherited_page(want.source.as_str(), want.after, want.through, 1);
                self.stream(path).read_range_inherited(&query, page).unwrap()
            }
            None => self.stream(path).read_range(&query).unwrap(),
        }
    }

    /// A native point read as `stream_object/inherited.rs` serves it.
    pub fn native_read_one(
        &mut self,
        path: &str,
        offset: u64,
    ) -> Result<tributary::stream::read::PointRead, tributary::stream::read::ReadError> {
        match self.stream(path).point_read_want(offset)? {
            Some(want) => {
                let page = self.inherited_page(want.source.as_str(), want.after, want.through, 1);
                self.stream(path).read_one_inherited(offset, page)
            }
            None => self.stream(path).read_one(offset),
        }
    }

    /// The object of `path` dies and a new instance opens its storage.
    pub fn restart(&mut self, path: &str) {
        let storage = self.streams.remove(path).unwrap().into_storage();
        self.streams.insert(
            path.to_owned(),
            Stream::open(storage, common::PROJECT, StreamPath::parse(path).unwrap()).unwrap(),
        );
    }

    /// A native range read through the JSON pages (`inherited::read_range`
    /// on a stream of JSON events): the body parsed.
    pub fn native_read_json(&mut self, path: &str, query: &str) -> serde_json::Value {
        let query = tributary::stream::RangeQuery::parse(query).unwrap();
        let body = match self.stream(path).range_read_want(&query).unwrap() {
            Some(want) => {
                let page = self.inherited_json(want.source.as_str(), want.after, want.through, query.limit, 1);
                self.stream(path).read_range_inherited_json(&query, page).unwrap().body
            }
            None => self.stream(path).read_range_json(&query).unwrap().body,
        };
        serde_json::from_str(&body).unwrap()
    }

    /// `serve_page::<JsonPages>`: a JSON page of data events, descending the chain.
    pub fn inherited_json(
        &mut self,
        source: &str,
        after: u64,
        through: u64,
        limit: u64,
        hops: u64,
    ) -> tributary::fork::read::InheritedJson {
        assert!(hops <= MAX_FORK_HOPS, "a page crossed more forks than its budget");
        match self
            .stream(source)
            .inherited_events_json(after, through, limit)
            .unwrap()
        {
            Segment::Local(page) => page,
            Segment::Deeper(range) => {
                self.inherited_json(range.source.as_str(), range.after, range.through, limit, hops + 1)
            }
        }
    }
}

pub fn header<'a>(answer: &'a ProtocolAnswer, name: &str) -> Option<&'a str> {
    answer
        .headers
        .iter()
        .find(|(key, _)| key.eq_ignore_ascii_case(name))
        .map(|(_, value)| value.as_str())
}

pub fn offset(native: u64) -> String {
    format!("0000000000000000_{native:016}")
}

pub const TEXT: (&str, &str) = ("Content-Type", "text/plain");

pub fn create(world: &mut World, path: &str, body: &str) {
    let answer = world.call(path, Method::Put, "", &[TEXT], body.as_bytes());
    assert_eq!(answer.status, 201, "{}", String::from_utf8_lossy(&answer.body));
}

pub fn append(world: &mut World, path: &str, body: &str) {
    let answer = world.call(path, Method::Post, "", &[TEXT], body.as_bytes());
    assert_eq!(answer.status, 204, "{}", String::from_utf8_lossy(&answer.body));
}

pub fn fork(world: &mut World, path: &str, from: &str, extra: &[(&str, &str)]) -> ProtocolAnswer {
    let from = format!("/v1/stream{from}");
    let mut headers = vec![("Stream-Forked-From", from.as_str())];
    headers.extend_from_slice(extra);
    world.call(path, Method::Put, "", &headers, b"")
}
