#ifndef TANDEM_CZEROMQ_SHIM_H
#define TANDEM_CZEROMQ_SHIM_H
#include <zmq.h>
#endif
