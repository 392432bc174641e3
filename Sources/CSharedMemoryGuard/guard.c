// See CSharedMemoryGuard.h. Everything the handler calls is a system call or a function of its
// own on buffers on its stack: no allocation, no stdio, no locks.
#define _GNU_SOURCE
#include "CSharedMemoryGuard.h"

#if defined(__linux__)
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

enum { PATH_CAPACITY = 4096, RECORD_SLOTS = 16 };

/// One index file the guard has handled a fault for. A slot is claimed once (`state` 0 to 1),
/// its path written, then published (`state` 2); `faults` only grows.
struct record {
  _Atomic int state;
  _Atomic uint64_t faults;
  char path[PATH_CAPACITY];
};

static struct record records[RECORD_SLOTS];
static _Atomic uint64_t total_faults;
static _Atomic uint64_t unrecorded_faults;  // when every slot is taken
static struct sigaction previous;
static long page_size;
static pthread_once_t install_once = PTHREAD_ONCE_INIT;
static int install_result;
static int install_errno;

static int ends_with_shm(const char *text, size_t length) {
  return length > 4 && memcmp(text + length - 4, "-shm", 4) == 0;
}

static void record_fault(const char *path, size_t length) {
  if (length >= PATH_CAPACITY) length = PATH_CAPACITY - 1;
  for (int index = 0; index < RECORD_SLOTS; index++) {
    struct record *slot = &records[index];
    int state = atomic_load_explicit(&slot->state, memory_order_acquire);
    if (state == 0) {
      int expected = 0;
      if (atomic_compare_exchange_strong(&slot->state, &expected, 1)) {
        memcpy(slot->path, path, length);
        slot->path[length] = 0;
        atomic_fetch_add(&slot->faults, 1);
        atomic_store_explicit(&slot->state, 2, memory_order_release);
        return;
      }
      state = expected;
    }
    while (state == 1) state = atomic_load_explicit(&slot->state, memory_order_acquire);
    if (strlen(slot->path) == length && memcmp(slot->path, path, length) == 0) {
      atomic_fetch_add(&slot->faults, 1);
      return;
    }
  }
  atomic_fetch_add(&unrecorded_faults, 1);
}

static uintptr_t parse_hex(const char **cursor, const char *end) {
  uintptr_t value = 0;
  const char *at = *cursor;
  for (; at < end; at++) {
    char c = *at;
    int digit;
    if (c >= '0' && c <= '9') digit = c - '0';
    else if (c >= 'a' && c <= 'f') digit = c - 'a' + 10;
    else break;
    value = value * 16 + (uintptr_t)digit;
  }
  *cursor = at;
  return value;
}

/// Whether `line` (one line of /proc/self/maps, without its newline) is a shared, writable
/// mapping of a "-shm" file that holds `address`; if so, points `path` at the file's path.
static int line_maps_index(const char *line, size_t length, uintptr_t address,
                           const char **path, size_t *path_length) {
  const char *at = line, *end = line + length;
  uintptr_t start = parse_hex(&at, end);
  if (at >= end || *at != '-') return 0;
  at++;
  uintptr_t stop = parse_hex(&at, end);
  if (address < start || address >= stop) return 0;
  // " rw-s offset dev inode   path"
  if (end - at < 5 || at[1] != 'r' || at[2] != 'w' || at[4] != 's') return 0;
  int fields = 0;
  while (at < end && fields < 5) {
    while (at < end && *at == ' ') at++;
    if (at >= end) return 0;
    if (fields == 4) break;
    while (at < end && *at != ' ') at++;
    fields++;
  }
  if (at >= end || *at != '/') return 0;
  size_t remaining = (size_t)(end - at);
  if (!ends_with_shm(at, remaining)) return 0;  // also refuses "... (deleted)"
  *path = at;
  *path_length = remaining;
  return 1;
}

/// Finds the mapping that holds `address` in /proc/self/maps; 1 with its path copied into
/// `path` when it is a "-shm" index, else 0.
static int find_index_mapping(uintptr_t address, char *path, size_t *path_length) {
  int descriptor = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
  if (descriptor < 0) return 0;
  char buffer[8192];
  size_t filled = 0;
  int found = 0;
  for (;;) {
    ssize_t count = read(descriptor, buffer + filled, sizeof buffer - filled);
    if (count < 0 && errno == EINTR) continue;
    if (count <= 0) break;
    filled += (size_t)count;
    size_t consumed = 0;
    for (;;) {
      char *newline = memchr(buffer + consumed, '\n', filled - consumed);
      if (newline == NULL) break;
      const char *match;
      size_t match_length;
      if (line_maps_index(buffer + consumed, (size_t)(newline - buffer) - consumed, address,
                          &match, &match_length)) {
        if (match_length >= PATH_CAPACITY) match_length = PATH_CAPACITY - 1;
        memcpy(path, match, match_length);
        *path_length = match_length;
        found = 1;
        goto done;
      }
      consumed = (size_t)(newline - buffer) + 1;
    }
    if (consumed == 0 && filled == sizeof buffer) break;  // a line longer than the buffer
    memmove(buffer, buffer + consumed, filled - consumed);
    filled -= consumed;
  }
done:
  close(descriptor);
  return found;
}

/// Moves a private copy of the page at `page` over it. 1 on success; 0 (nothing changed) when
/// the page cannot be read (beyond the end of a truncated file, say) or memory is short.
static int privatize_page(uintptr_t page) {
  void *copy = mmap(NULL, (size_t)page_size, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (copy == MAP_FAILED) return 0;
  // process_vm_readv reports an unreadable page as an error instead of faulting again.
  struct iovec local = {copy, (size_t)page_size};
  struct iovec remote = {(void *)page, (size_t)page_size};
  if (process_vm_readv(getpid(), &local, 1, &remote, 1, 0) != page_size) {
    munmap(copy, (size_t)page_size);
    return 0;
  }
  if (mremap(copy, (size_t)page_size, (size_t)page_size, MREMAP_MAYMOVE | MREMAP_FIXED,
             (void *)page) == MAP_FAILED) {
    munmap(copy, (size_t)page_size);
    return 0;
  }
  return 1;
}

static void hand_on(int signal_number) {
  // Not a fault of ours: restore what was there before and let it see the signal. A fault
  // from the kernel happens again when the handler returns; a sent signal is sent again.
  int saved = errno;
  sigaction(SIGBUS, &previous, NULL);
  errno = saved;
  (void)signal_number;
}

static void on_bus_error(int signal_number, siginfo_t *info, void *context) {
  (void)context;
  int saved = errno;
  if (info == NULL || info->si_code <= 0) {
    hand_on(signal_number);
    raise(signal_number);
    errno = saved;
    return;
  }
  uintptr_t address = (uintptr_t)info->si_addr;
  char path[PATH_CAPACITY];
  size_t length = 0;
  if (find_index_mapping(address, path, &length) &&
      privatize_page(address & ~((uintptr_t)page_size - 1))) {
    record_fault(path, length);
    atomic_fetch_add(&total_faults, 1);
    errno = saved;
    return;
  }
  hand_on(signal_number);
  errno = saved;
}

static void install(void) {
  page_size = sysconf(_SC_PAGESIZE);
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_sigaction = on_bus_error;
  action.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&action.sa_mask);
  if (page_size <= 0 || sigaction(SIGBUS, &action, &previous) != 0) {
    install_result = -1;
    install_errno = page_size <= 0 ? EINVAL : errno;
  }
}

int tandem_shm_guard_install(void) {
  pthread_once(&install_once, install);
  if (install_result != 0) errno = install_errno;
  return install_result;
}

uint64_t tandem_shm_guard_faults(const char *path) {
  size_t length = strlen(path);
  for (int index = 0; index < RECORD_SLOTS; index++) {
    struct record *slot = &records[index];
    if (atomic_load_explicit(&slot->state, memory_order_acquire) != 2) continue;
    if (strlen(slot->path) == length && memcmp(slot->path, path, length) == 0)
      return atomic_load(&slot->faults);
  }
  // Every slot taken by other files: any unrecorded fault may be this file's.
  return atomic_load(&unrecorded_faults);
}

uint64_t tandem_shm_guard_total_faults(void) { return atomic_load(&total_faults); }

#else

int tandem_shm_guard_install(void) { return 0; }
uint64_t tandem_shm_guard_faults(const char *path) { (void)path; return 0; }
uint64_t tandem_shm_guard_total_faults(void) { return 0; }

#endif
