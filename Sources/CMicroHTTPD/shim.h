#ifndef TANDEM_CMICROHTTPD_SHIM_H
#define TANDEM_CMICROHTTPD_SHIM_H
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <microhttpd.h>

/* MHD_start_daemon and MHD_get_daemon_info are variadic, which Swift cannot call: these
   non-variadic helpers pass the options the MicroHTTP module uses. */

/* Starts a daemon listening on `host` (an IPv4 or IPv6 literal) and `port` (0: any free port).
   Returns NULL when the host is not a literal (`*bad_host` set to 1) or the daemon failed (errno). */
static inline struct MHD_Daemon *tandem_mhd_start(
    unsigned int flags, const char *host, uint16_t port, unsigned int connection_timeout,
    MHD_AccessHandlerCallback handler, void *handler_cls,
    MHD_RequestCompletedCallback completed, void *completed_cls, int *bad_host) {
  struct sockaddr_in v4;
  struct sockaddr_in6 v6;
  const struct sockaddr *address;
  memset(&v4, 0, sizeof v4);
  memset(&v6, 0, sizeof v6);
  *bad_host = 0;
  if (inet_pton(AF_INET, host, &v4.sin_addr) == 1) {
    v4.sin_family = AF_INET;
    v4.sin_port = htons(port);
    address = (const struct sockaddr *)&v4;
  } else if (inet_pton(AF_INET6, host, &v6.sin6_addr) == 1) {
    v6.sin6_family = AF_INET6;
    v6.sin6_port = htons(port);
    address = (const struct sockaddr *)&v6;
    flags |= MHD_USE_IPv6;
  } else {
    *bad_host = 1;
    return NULL;
  }
  return MHD_start_daemon(
      flags, port, NULL, NULL, handler, handler_cls,
      MHD_OPTION_CONNECTION_TIMEOUT, connection_timeout,
      MHD_OPTION_NOTIFY_COMPLETED, completed, completed_cls,
      MHD_OPTION_SOCK_ADDR, address,
      MHD_OPTION_END);
}

/* The port the daemon is bound to, or 0 when unknown. */
static inline uint16_t tandem_mhd_bound_port(struct MHD_Daemon *daemon) {
  const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
  return info == NULL ? 0 : info->port;
}

#endif
