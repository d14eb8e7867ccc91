#pragma once

// Bounds on one pass of the transport's event loop (libev, inside lws): how many socket events
// one wait hands over, and a poll set of the connections served first in a pass.

// The declaration of `epoll_wait`, which event_pass.c defines for the executable.
#include <sys/epoll.h>

/// Caps the events one `epoll_wait` of the calling thread takes at `cap` (0: no cap). Only the
/// thread that calls this is capped; every other thread's waits are left as they are.
void event_pass_cap_events(int cap);

/// The calling thread's cap (0: none).
int event_pass_events_cap(void);

/// How many events the calling thread's last `epoll_wait` handed over (0 after an error).
int event_pass_events_taken(void);

/// A poll set of its own (an epoll descriptor) for connections to serve first, or -1.
int event_pass_first_new(void);

/// Adds socket `fd` to `set`, for input. 0 on success, -1 with errno.
int event_pass_first_add(int set, int fd);

/// Takes socket `fd` out of `set`. 0 on success, -1 with errno.
int event_pass_first_remove(int set, int fd);

/// The sockets of `set` with input waiting, without waiting: at most `max` written to `fds`.
/// Their count, or -1 with errno.
int event_pass_first_ready(int set, int *fds, int max);
