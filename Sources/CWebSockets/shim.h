#pragma once

// The single header the CWebSockets module exports to Swift: libwebsockets 4.1 itself plus
// small `static inline` helpers for the parts that do not import (macros, variadic log calls)
// and the few libev calls the transport needs to own its event loop.

#include <libwebsockets.h>

// Only the loop functions of libev are used; the 3.x compatibility names (`ev_loop()` as a
// function, `EVUNLOOP_*`) would clash with `struct ev_loop` in Swift.
#define EV_COMPAT3 0
#include <ev.h>

#include <stdint.h>
#include <stdlib.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stddef.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <linux/sockios.h>

/// `LWS_PRE`: bytes of headroom lws needs in front of every buffer passed to `lws_write`.
static inline size_t shim_lws_pre(void) { return LWS_PRE; }

/// What lws keeps per WebSocket session (its zeroed "per session data"): the id the transport
/// gave the connection, an unretained pointer to the transport's state for it (valid while
/// `established`; the transport's table of connections holds the reference), and whether
/// `LWS_CALLBACK_ESTABLISHED` ran for it. `LWS_CALLBACK_CLOSED` also arrives for failed
/// upgrades, with every field still zero.
typedef struct shim_session {
  uint64_t connection_id;
  void *state;
  uint8_t established;
} shim_session;

/// An lws timer (`lws_sorted_usec_list_t`) with a pointer back to its owner.
/// `sul` must stay the first member: the timer callback receives a pointer to it.
typedef struct shim_timer {
  lws_sorted_usec_list_t sul;
  void *owner;
} shim_timer;

/// The owner pointer of the `shim_timer` whose `sul` fired.
static inline void *shim_timer_owner(lws_sorted_usec_list_t *sul) {
  return ((shim_timer *)(void *)sul)->owner;
}

/// A new libev loop for the transport's service thread. `EVFLAG_NOSIGMASK` keeps libev away
/// from the thread's signal mask; no signal watcher is ever started on this loop.
static inline struct ev_loop *shim_ev_loop_new(void) {
  return ev_loop_new(EVFLAG_AUTO | EVFLAG_NOSIGMASK);
}

/// The watchers waiting to be called in the current pass of `loop`.
static inline unsigned int shim_ev_pending_count(struct ev_loop *loop) {
  return ev_pending_count(loop);
}

/// Makes the innermost `ev_run` on `loop` (inside `lws_service`) return; service thread only.
static inline void shim_ev_break_all(struct ev_loop *loop) { ev_break(loop, EVBREAK_ALL); }

/// Frees a loop made by `shim_ev_loop_new` after the lws context using it was destroyed.
static inline void shim_ev_loop_destroy(struct ev_loop *loop) { ev_loop_destroy(loop); }

/// The libev backend in use (`EVBACKEND_EPOLL` is 4 on Linux).
static inline unsigned int shim_ev_backend(struct ev_loop *loop) { return ev_backend(loop); }

/// Writes one WebSocket close frame (`payload`: 2-byte code + reason, with `LWS_PRE` bytes of
/// headroom) without starting lws' own close. lws 4.1.6 uses opcode value 4 (`LWS_WRITE_CLOSE`,
/// defined only in its private headers) for this in its own close path. The transport uses it
/// so that it can wait for the peer's close reply before the TCP connection is closed: with an
/// event library, lws' `lws_close_reason()` + `return -1` closes the socket right after the close
/// frame, and if the peer is still sending, the kernel answers with a reset that can destroy the
/// close frame before the peer reads it.
static inline int shim_lws_write_close(struct lws *wsi, unsigned char *payload, size_t len) {
  return lws_write(wsi, payload, len, (enum lws_write_protocol)4);
}

/// Timer callback of `shim_tick_start`: a self-wake of the lws service (its "event pipe").
__attribute__((unused)) static void shim_tick_fire(struct ev_loop *loop, ev_timer *timer,
                                                   int revents) {
  (void)loop;
  (void)revents;
  lws_cancel_service((struct lws_context *)timer->data);
}

/// Starts a repeating libev timer that calls `fire` every `interval` seconds, with `data` in the
/// timer's `data`. Used where an lws timer (`lws_sul_schedule`) could fire late (see
/// `shim_tick_start`).
static inline ev_timer *shim_repeat_start(struct ev_loop *loop,
                                          void (*fire)(struct ev_loop *, ev_timer *, int),
                                          void *data, double interval) {
  ev_timer *timer = calloc(1, sizeof *timer);
  if (!timer) return NULL;
  ev_timer_init(timer, fire, interval, interval);
  timer->data = data;
  ev_timer_start(loop, timer);
  return timer;
}

/// Stops and frees a timer made by `shim_repeat_start`.
static inline void shim_repeat_stop(struct ev_loop *loop, ev_timer *timer) {
  if (!timer) return;
  ev_timer_stop(loop, timer);
  free(timer);
}

/// Timer callback of `shim_wake_new`: nothing. Its firing ends the loop's wait, and the loop's
/// `ev_prepare` watcher (`shim_before_wait_start`) does what fell due before the next wait.
__attribute__((unused)) static void shim_wake_fire(struct ev_loop *loop, ev_timer *timer,
                                                   int revents) {
  (void)loop;
  (void)timer;
  (void)revents;
}

/// A one-shot libev timer that only ends the loop's wait, not armed (arm it with
/// `shim_wake_arm`, free it with `shim_repeat_stop`).
static inline ev_timer *shim_wake_new(void) {
  ev_timer *timer = calloc(1, sizeof *timer);
  if (!timer) return NULL;
  ev_timer_init(timer, shim_wake_fire, 0., 0.);
  return timer;
}

/// Arms `timer` to fire once in `seconds`, moving it if it was armed.
static inline void shim_wake_arm(struct ev_loop *loop, ev_timer *timer, double seconds) {
  ev_timer_stop(loop, timer);
  ev_timer_set(timer, seconds, 0.);
  ev_timer_start(loop, timer);
}

/// Starts a repeating libev timer that wakes `context` every `interval` seconds (stop it with
/// `shim_repeat_stop`).
///
/// Why: lws 4.1.6 with libev runs its own timers (`lws_set_timeout`, keepalive, `lws_sul_*`)
/// from one private `ev_timer` that it re-arms with `ev_timer_set` + `ev_timer_start`; that
/// does nothing while the timer is already armed, so a timer that is due sooner than the armed
/// one fires late (seen: a 5 s timeout after 17 s). Due timers are also checked after every
/// socket event, so a periodic wake bounds the lateness to `interval`.
static inline ev_timer *shim_tick_start(struct ev_loop *loop, struct lws_context *context,
                                        double interval) {
  return shim_repeat_start(loop, shim_tick_fire, context, interval);
}

/// Starts a watcher that calls `fire` each time the loop is about to wait for events (libev's
/// `ev_prepare`); `data` is handed to it in the watcher's `data`.
static inline ev_prepare *shim_before_wait_start(struct ev_loop *loop,
                                                 void (*fire)(struct ev_loop *, ev_prepare *, int),
                                                 void *data) {
  ev_prepare *watcher = calloc(1, sizeof *watcher);
  if (!watcher) return NULL;
  ev_prepare_init(watcher, fire);
  watcher->data = data;
  ev_prepare_start(loop, watcher);
  return watcher;
}

/// Stops and frees a watcher made by `shim_before_wait_start`.
static inline void shim_before_wait_stop(struct ev_loop *loop, ev_prepare *watcher) {
  if (!watcher) return;
  ev_prepare_stop(loop, watcher);
  free(watcher);
}

/// Starts a watcher that calls `fire` each time the loop has waited for events (libev's
/// `ev_check`), before any other callback of that turn (the highest priority).
static inline ev_check *shim_after_wait_start(struct ev_loop *loop,
                                              void (*fire)(struct ev_loop *, ev_check *, int),
                                              void *data) {
  ev_check *watcher = calloc(1, sizeof *watcher);
  if (!watcher) return NULL;
  ev_check_init(watcher, fire);
  ev_set_priority(watcher, EV_MAXPRI);
  watcher->data = data;
  ev_check_start(loop, watcher);
  return watcher;
}

/// Stops and frees a watcher made by `shim_after_wait_start`.
static inline void shim_after_wait_stop(struct ev_loop *loop, ev_check *watcher) {
  if (!watcher) return;
  ev_check_stop(loop, watcher);
  free(watcher);
}

/// Bytes the kernel holds for socket `fd` and has not sent yet (`SIOCOUTQNSD`): they wait for
/// the peer's receive window. Bytes sent and not yet acknowledged are not counted. -1 on error.
static inline int shim_unsent_bytes(int fd) {
  int bytes = 0;
  return ioctl(fd, SIOCOUTQNSD, &bytes) < 0 ? -1 : bytes;
}

/// The head of Linux's `struct tcp_info` up to `tcpi_bytes_acked` (glibc's copy of the struct
/// ends before it, at `tcpi_total_retrans`).
struct shim_tcp_info_head {
  uint8_t glibc_part[104];
  uint64_t pacing_rate;
  uint64_t max_pacing_rate;
  uint64_t bytes_acked;
};
_Static_assert(offsetof(struct tcp_info, tcpi_total_retrans) == 100 &&
                   sizeof(struct tcp_info) == 104,
               "glibc's struct tcp_info is not the one shim_tcp_info_head extends");

/// The bytes the peer of socket `fd` has acknowledged in all (`tcpi_bytes_acked`), or -1.
static inline int64_t shim_bytes_acknowledged(int fd) {
  struct shim_tcp_info_head info = {0};
  socklen_t length = sizeof info;
  if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &length) < 0 || length < sizeof info) return -1;
  return (int64_t)info.bytes_acked;
}

/// Sets the kernel's send buffer of socket `fd` to `bytes` (`SO_SNDBUF`; Linux doubles it for
/// its own bookkeeping and stops growing it on its own). 0 on success.
static inline int shim_set_send_buffer(int fd, int bytes) {
  return setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &bytes, sizeof bytes);
}

/// Makes the close of socket `fd` a reset (`SO_LINGER` on with a zero time): the kernel drops
/// what it still holds for the peer at once instead of trying to deliver it. 0 on success.
static inline int shim_reset_on_close(int fd) {
  struct linger linger = {.l_onoff = 1, .l_linger = 0};
  return setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, sizeof linger);
}

/// Hands socket `fd`, accepted from the listening socket of `vhost`, to lws as the listener
/// would have (a server connection that starts as HTTP; TLS where the vhost has it). NULL if lws
/// refused it (it has closed `fd` then).
static inline struct lws *shim_adopt_accepted(struct lws_vhost *vhost, int fd, int tls) {
  lws_sock_file_fd_type descriptor;
  descriptor.sockfd = fd;
  int type = LWS_ADOPT_SOCKET | LWS_ADOPT_HTTP | (tls ? LWS_ADOPT_ALLOW_SSL : 0);
  return lws_adopt_descriptor_vhost(vhost, (lws_adoption_type)type, descriptor, NULL, NULL);
}

/// Accepts the next connection waiting on listening socket `listener`, non-blocking, closed on
/// exec, with Nagle off (as lws sets its own); -1 when none waits.
static inline int shim_accept_next(int listener) {
  int fd = accept4(listener, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
  if (fd < 0) return -1;
  int on = 1;
  (void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
  return fd;
}
