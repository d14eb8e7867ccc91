#pragma once

// The single header the CSQLite module exports to Swift: SQLite's C library (Debian's
// libsqlite3-dev), which the embedded journal (`SQLiteJournalStore`) drives through
// `SQLiteConnection`.

#include <sqlite3.h>
