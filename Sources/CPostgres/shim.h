#pragma once

// The single header the CPostgres module exports to Swift: libpq, PostgreSQL's own client
// library (Debian's libpq-dev), through which the journal and the cluster's link talk to the
// database. The journal drives it without blocking (`PQconnectStartParams`, `PQsendQueryParams`)
// and waits on its socket with `poll`, so that every exchange has a time limit.

#include <libpq-fe.h>
#include <poll.h>
#include <sys/socket.h>
