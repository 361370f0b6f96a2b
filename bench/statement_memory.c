/* What statements hold compiled in SQLite built as workerd builds it (issue 33, §12).
 *
 *   statement_memory SCHEMA.sql TEXTS...
 *
 * Runs SCHEMA.sql on a fresh in-memory database, then compiles each
 * statement of each TEXTS file (statements separated by a line holding
 * only U+0001, as tests/engine_statement_memory.rs writes them) with
 * SQLITE_PREPARE_PERSISTENT, as workerd's util/sqlite.c++ compiles an
 * object's statements, and prints what SQLite says each holds
 * (SQLITE_STMTSTATUS_MEMUSED), each file's total and the schema's
 * (SQLITE_DBSTATUS_SCHEMA_USED). Built and run by bench/statement_memory.sh. */
#include "sqlite3.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *slurp(const char *path) {
  FILE *file = fopen(path, "rb");
  if (!file) { perror(path); exit(2); }
  if (fseek(file, 0, SEEK_END) != 0) { perror(path); exit(2); }
  long size = ftell(file);
  rewind(file);
  char *text = malloc((size_t)size + 1);
  if (!text || fread(text, 1, (size_t)size, file) != (size_t)size) { fprintf(stderr, "%s: short read\n", path); exit(2); }
  text[size] = 0;
  fclose(file);
  return text;
}

int main(int argc, char **argv) {
  if (argc < 3) { fprintf(stderr, "usage: %s SCHEMA.sql TEXTS...\n", argv[0]); return 2; }
  sqlite3 *db;
  if (sqlite3_open(":memory:", &db) != SQLITE_OK) return 1;
  char *error = NULL;
  if (sqlite3_exec(db, "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY)", 0, 0, &error) != SQLITE_OK ||
      sqlite3_exec(db, slurp(argv[1]), 0, 0, &error) != SQLITE_OK) {
    fprintf(stderr, "schema: %s\n", error);
    return 1;
  }
  int schema = 0, high = 0;
  sqlite3_db_status(db, SQLITE_DBSTATUS_SCHEMA_USED, &schema, &high, 0);
  printf("SQLite %s, schema %d bytes\n", sqlite3_libversion(), schema);
  for (int arg = 2; arg < argc; arg++) {
    char *text = slurp(argv[arg]);
    long total = 0;
    int count = 0;
    for (char *sql = text; sql && *sql;) {
      char *end = strstr(sql, "\n\x01\n");
      if (end) *end = 0;
      sqlite3_stmt *statement;
      if (sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &statement, 0) != SQLITE_OK) {
        fprintf(stderr, "%s: %s: %.80s\n", argv[arg], sqlite3_errmsg(db), sql);
        return 1;
      }
      int bytes = sqlite3_stmt_status(statement, SQLITE_STMTSTATUS_MEMUSED, 0);
      printf("  %7d  %.100s\n", bytes, sql);
      total += bytes;
      count++;
      /* Kept, as an object keeps them. */
      sql = end ? end + 3 : NULL;
    }
    printf("%s: %d statements, %ld bytes\n", argv[arg], count, total);
  }
  return 0;
}
