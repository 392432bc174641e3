#ifndef TANDEM_CSQLITE_SHIM_H
#define TANDEM_CSQLITE_SHIM_H
#include <sqlite3.h>

/// SQLITE_TRANSIENT, which Swift cannot import as a macro: SQLite copies the bound bytes.
static inline sqlite3_destructor_type tandem_sqlite_transient(void) {
  return SQLITE_TRANSIENT;
}
#endif
