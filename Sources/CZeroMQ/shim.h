#ifndef TANDEM_CZEROMQ_SHIM_H
#define TANDEM_CZEROMQ_SHIM_H
#include <zmq.h>

#ifdef __linux__
#include <sys/prctl.h>
/// Names the calling thread (at most 15 bytes are kept), for debuggers and `top -H`.
static inline int czmq_set_current_thread_name(const char *name) {
  return prctl(PR_SET_NAME, (unsigned long)name, 0, 0, 0);
}
#endif

#endif
