#ifndef TANDEM_CPROCESSCONTROL_SHIM_H
#define TANDEM_CPROCESSCONTROL_SHIM_H
#if defined(__linux__)
#include <sys/prctl.h>

/// prctl(PR_SET_PDEATHSIG, signal_number), which Swift cannot call (prctl is variadic): the
/// kernel sends `signal_number` to the calling process when the thread that started it ends
/// (with its process or alone). Returns 0, or -1 with errno set.
static inline int tandem_set_parent_death_signal(int signal_number) {
  return prctl(PR_SET_PDEATHSIG, (unsigned long)signal_number);
}
#endif
#endif
