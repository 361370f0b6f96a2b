//! One statement's answer is capped (docs/design.md §12): past
//! `MAX_SQL_ANSWER_VALUES` values or `MAX_SQL_ANSWER_BYTES` bytes it is
//! refused, on the native driver as in a Durable Object, whose driver
//! checks the sizes before allocating for the rows.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use tributary::limits::{MAX_SQL_ANSWER_BYTES, MAX_SQL_ANSWER_VALUES, SQL_VALUE_LIMIT_BYTES};
use tributary::storage::rusqlite_driver::RusqliteStorage;
use tributary::storage::{Storage, StorageError};

const COUNT_TO: &str = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < ?) SELECT x FROM c";
const BLOBS: &str =
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < ?) SELECT zeroblob(?) FROM c";

#[test]
fn s12_an_answer_of_as_many_values_as_the_cap_is_read_and_one_more_is_refused() {
    let storage = RusqliteStorage::in_memory().unwrap();
    let at_cap = storage
        .query(COUNT_TO, &[(MAX_SQL_ANSWER_VALUES as u64).into()])
        .unwrap();
    assert_eq!(at_cap.len(), MAX_SQL_ANSWER_VALUES);
    match storage.query(COUNT_TO, &[(MAX_SQL_ANSWER_VALUES as u64 + 1).into()]) {
        Err(StorageError::AnswerTooLarge { values, .. }) => assert_eq!(values, MAX_SQL_ANSWER_VALUES + 1),
        other => panic!("expected AnswerTooLarge, got {other:?}"),
    }
}

#[test]
fn s12_an_answer_past_the_cap_in_bytes_is_refused_where_it_crosses_it() {
    let storage = RusqliteStorage::in_memory().unwrap();
    // Values as large as one may be (the platform's 2 MB), as few as fit the cap.
    let value = SQL_VALUE_LIMIT_BYTES as usize - 1_000;
    let fit = MAX_SQL_ANSWER_BYTES / value;
    let within = storage
        .query(BLOBS, &[(fit as u64).into(), (value as u64).into()])
        .unwrap();
    assert_eq!(within.len(), fit);
    match storage.query(BLOBS, &[(fit as u64 + 5).into(), (value as u64).into()]) {
        Err(StorageError::AnswerTooLarge { bytes, values, .. }) => {
            // Refused at the row that crossed the cap, not after reading the rest.
            assert_eq!(values, fit + 1);
            assert_eq!(bytes, (fit + 1) * value);
        }
        other => panic!("expected AnswerTooLarge, got {other:?}"),
    }
}
