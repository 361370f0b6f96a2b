//! Reading a row by column name: each record names its columns once (a
//! `COLUMNS` list in select order) and decodes through this.

use crate::storage::{Columns, SqlValue, StorageError};

/// A row whose columns are `names`, in order.
pub(crate) struct Named<'a> {
    pub columns: Columns<'a>,
    pub names: &'static [&'static str],
}

impl<'a> Named<'a> {
    pub fn new(query: &'a str, row: &'a [SqlValue], names: &'static [&'static str]) -> Named<'a> {
        Named {
            columns: Columns { query, row },
            names,
        }
    }

    fn index(&self, name: &str) -> Result<usize, StorageError> {
        self.names
            .iter()
            .position(|column| *column == name)
            .ok_or_else(|| StorageError::Decode {
                query: crate::text::query_excerpt(self.columns.query),
                column: self.names.len(),
            })
    }

    pub fn is_null(&self, name: &str) -> Result<bool, StorageError> {
        Ok(matches!(self.columns.row.get(self.index(name)?), Some(SqlValue::Null)))
    }

    pub fn int(&self, name: &str) -> Result<i64, StorageError> {
        self.columns.int(self.index(name)?)
    }

    /// A non-negative integer (offsets and counts; negatives read as 0).
    pub fn count(&self, name: &str) -> Result<u64, StorageError> {
        self.int(name).map(|n| n.max(0) as u64)
    }

    pub fn optional_int(&self, name: &str) -> Result<Option<i64>, StorageError> {
        if self.is_null(name)? {
            return Ok(None);
        }
        self.int(name).map(Some)
    }

    pub fn text(&self, name: &str) -> Result<String, StorageError> {
        self.columns.text(self.index(name)?)
    }

    pub fn optional_text(&self, name: &str) -> Result<Option<String>, StorageError> {
        self.columns.opt_text(self.index(name)?)
    }

    /// A BLOB column's bytes, `None` when NULL.
    pub fn optional_blob(&self, name: &str) -> Result<Option<&'a [u8]>, StorageError> {
        match self.columns.row.get(self.index(name)?) {
            Some(SqlValue::Null) => Ok(None),
            Some(SqlValue::Blob(bytes)) => Ok(Some(bytes.as_slice())),
            _ => Err(StorageError::Decode {
                query: crate::text::query_excerpt(self.columns.query),
                column: self.column(name),
            }),
        }
    }

    /// The column's index, for errors that name it.
    pub fn column(&self, name: &str) -> usize {
        self.index(name).unwrap_or(self.names.len())
    }
}
