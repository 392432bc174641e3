#include "CZeroMQBaseline.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zmq.h>

struct zb_endpoint {
  void *context;
  void *socket;
};

static double now_seconds(void) {
  struct timespec time;
  clock_gettime(CLOCK_MONOTONIC, &time);
  return (double)time.tv_sec + (double)time.tv_nsec * 1e-9;
}

static int fail(void *context, void *socket) {
  int error = zmq_errno();
  if (socket) {
    int linger = 0;
    zmq_setsockopt(socket, ZMQ_LINGER, &linger, sizeof linger);
    zmq_close(socket);
  }
  if (context) zmq_ctx_term(context);
  return error;
}

int zb_publish(const char *endpoint, size_t size, long count) {
  void *context = zmq_ctx_new();
  void *publisher = zmq_socket(context, ZMQ_XPUB);
  if (!publisher) return fail(context, NULL);
  int on = 1;
  if (zmq_setsockopt(publisher, ZMQ_XPUB_NODROP, &on, sizeof on) != 0) {
    return fail(context, publisher);
  }
  if (zmq_connect(publisher, endpoint) != 0) return fail(context, publisher);
  char subscription[256];
  if (zmq_recv(publisher, subscription, sizeof subscription, 0) < 0) {
    return fail(context, publisher);
  }
  char *payload = calloc(size ? size : 1, 1);
  for (long index = 0; index < count; index++) {
    if (zmq_send(publisher, payload, size, 0) < 0) {
      free(payload);
      return fail(context, publisher);
    }
  }
  free(payload);
  zmq_close(publisher);  // linger -1: the context term below waits until all is delivered
  zmq_ctx_term(context);
  return 0;
}

static zb_endpoint *open_bound(int type, char *endpoint, size_t capacity) {
  zb_endpoint *result = calloc(1, sizeof *result);
  result->context = zmq_ctx_new();
  result->socket = zmq_socket(result->context, type);
  if (!result->socket) goto failed;
  if (type == ZMQ_SUB && zmq_setsockopt(result->socket, ZMQ_SUBSCRIBE, "", 0) != 0) goto failed;
  if (zmq_bind(result->socket, "tcp://127.0.0.1:*") != 0) goto failed;
  if (zmq_getsockopt(result->socket, ZMQ_LAST_ENDPOINT, endpoint, &capacity) != 0) goto failed;
  return result;
failed:
  fail(result->context, result->socket);
  free(result);
  return NULL;
}

zb_endpoint *zb_subscriber_open(char *endpoint, size_t capacity) {
  return open_bound(ZMQ_SUB, endpoint, capacity);
}

double zb_subscriber_receive(zb_endpoint *subscriber, long count) {
  zmq_msg_t message;
  zmq_msg_init(&message);
  double start = 0;
  for (long index = 0; index < count; index++) {
    if (zmq_msg_recv(&message, subscriber->socket, 0) < 0) {
      if (zmq_errno() == EINTR) {
        index--;
        continue;
      }
      zmq_msg_close(&message);
      return -1;
    }
    if (index == 0) start = now_seconds();
  }
  double end = now_seconds();
  zmq_msg_close(&message);
  return end - start;
}

int zb_echo(const char *endpoint, long count) {
  void *context = zmq_ctx_new();
  void *router = zmq_socket(context, ZMQ_ROUTER);
  if (!router) return fail(context, NULL);
  if (zmq_connect(router, endpoint) != 0) return fail(context, router);
  zmq_msg_t identity, payload;
  zmq_msg_init(&identity);
  zmq_msg_init(&payload);
  for (long index = 0; index < count; index++) {
    if (zmq_msg_recv(&identity, router, 0) < 0 || zmq_msg_recv(&payload, router, 0) < 0 ||
        zmq_msg_send(&identity, router, ZMQ_SNDMORE) < 0 || zmq_msg_send(&payload, router, 0) < 0) {
      zmq_msg_close(&identity);
      zmq_msg_close(&payload);
      return fail(context, router);
    }
  }
  zmq_msg_close(&identity);
  zmq_msg_close(&payload);
  zmq_close(router);
  zmq_ctx_term(context);
  return 0;
}

zb_endpoint *zb_requester_open(char *endpoint, size_t capacity) {
  return open_bound(ZMQ_DEALER, endpoint, capacity);
}

int zb_round_trips(zb_endpoint *requester, size_t size, long count, double *nanoseconds) {
  char *payload = calloc(size ? size : 1, 1);
  zmq_msg_t reply;
  zmq_msg_init(&reply);
  for (long index = 0; index < count; index++) {
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    if (zmq_send(requester->socket, payload, size, 0) < 0 ||
        zmq_msg_recv(&reply, requester->socket, 0) < 0) {
      int error = zmq_errno();
      zmq_msg_close(&reply);
      free(payload);
      return error;
    }
    clock_gettime(CLOCK_MONOTONIC, &end);
    nanoseconds[index] =
        (double)(end.tv_sec - start.tv_sec) * 1e9 + (double)(end.tv_nsec - start.tv_nsec);
  }
  zmq_msg_close(&reply);
  free(payload);
  return 0;
}

void zb_close(zb_endpoint *endpoint) {
  if (!endpoint) return;
  int linger = 0;
  zmq_setsockopt(endpoint->socket, ZMQ_LINGER, &linger, sizeof linger);
  zmq_close(endpoint->socket);
  zmq_ctx_term(endpoint->context);
  free(endpoint);
}
