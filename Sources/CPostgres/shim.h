#ifndef TANDEM_CPOSTGRES_SHIM_H
#define TANDEM_CPOSTGRES_SHIM_H
#include <libpq-fe.h>
#endif
