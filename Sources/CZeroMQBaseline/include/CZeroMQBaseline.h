#ifndef TANDEM_CZEROMQBASELINE_H
#define TANDEM_CZEROMQBASELINE_H

// Raw libzmq, called from C: the baseline `tandem bench zmq` compares the Swift wrapper with.
// Every function does exactly what the wrapper's side of the benchmark does, with plain libzmq
// calls (zmq_send from a buffer, zmq_msg_recv into one reused zmq_msg_t). Functions return 0
// (or a handle) on success and the errno (or NULL) on failure.

#include <stddef.h>

/// A context plus one bound socket (the measuring side of a benchmark).
typedef struct zb_endpoint zb_endpoint;

/// Publisher peer: connects an XPUB (ZMQ_XPUB_NODROP, so nothing is dropped at the high-water
/// mark) to `endpoint`, waits for the subscriber's subscription, sends `count` messages of
/// `size` bytes, and returns once all are delivered.
int zb_publish(const char *endpoint, size_t size, long count);

/// A SUB socket subscribed to everything, bound to tcp://127.0.0.1:*; the endpoint bound is
/// written to `endpoint` (NUL-terminated, at most `capacity` bytes).
zb_endpoint *zb_subscriber_open(char *endpoint, size_t capacity);

/// Receives `count` messages; returns the seconds from the first message to the last, or a
/// negative number on error.
double zb_subscriber_receive(zb_endpoint *subscriber, long count);

/// Echo peer: connects a ROUTER to `endpoint` and sends each of `count` messages back to its
/// sender.
int zb_echo(const char *endpoint, long count);

/// A DEALER bound to tcp://127.0.0.1:*; the endpoint is written as for zb_subscriber_open.
zb_endpoint *zb_requester_open(char *endpoint, size_t capacity);

/// Performs `count` round trips of `size` bytes through the echo peer; writes each one's
/// duration in nanoseconds to `nanoseconds[i]`.
int zb_round_trips(zb_endpoint *requester, size_t size, long count, double *nanoseconds);

/// Closes the socket and terminates the context.
void zb_close(zb_endpoint *endpoint);

#endif
