#ifndef TANDEM_CSHAREDMEMORYGUARD_H
#define TANDEM_CSHAREDMEMORYGUARD_H
#include <stdint.h>

/// Installs (once per process; later calls do nothing) a SIGBUS handler that turns a fault on a
/// write through a mapping of a file whose name ends in "-shm" (SQLite's shared-memory index of
/// a WAL database) into a recorded fault instead of a crash.
///
/// Such a write faults when the file can no longer be written while it is mapped: made
/// immutable or append-only, or on a file system that failed. The handler moves a private copy
/// of the page over it (so the write that faulted, and the process's own view of the index, go
/// on coherently) and records the file's path; the process must then stop writing that
/// database (its index is no longer shared) and reopen it once the file is fixed. Any other
/// SIGBUS goes to the disposition that was installed before, as if the guard were not there.
///
/// Returns 0, or -1 with errno set when the handler could not be installed.
int tandem_shm_guard_install(void);

/// How many faults the guard has handled for the index file at `path` (the full path of the
/// "-shm" file, as the process mapped it) since the process started. Thread-safe.
uint64_t tandem_shm_guard_faults(const char *path);

/// How many faults the guard has handled in all. Thread-safe.
uint64_t tandem_shm_guard_total_faults(void);

#endif
