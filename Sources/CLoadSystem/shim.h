// Linux headers that Swift's Glibc module leaves out, for LoadKit's event loop: epoll and
// timerfd. Declarations only; everything is in the C library.
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <netinet/in.h>

/// `IP_BIND_ADDRESS_NO_PORT` (Linux 4.2+): a `bind` to an address with port 0 leaves the port to
/// `connect`, which picks one unique for the whole 4-tuple.
static inline int load_ip_bind_address_no_port(void) { return IP_BIND_ADDRESS_NO_PORT; }

#include <sys/ioctl.h>

/// Bytes received on socket `fd` and not read yet (`FIONREAD`), or -1.
static inline int load_unread_bytes(int fd) {
  int bytes = 0;
  return ioctl(fd, FIONREAD, &bytes) < 0 ? -1 : bytes;
}

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

/// Sets the calling thread's nice value (Linux: `setpriority` of a thread id), 0 or -1.
static inline int load_nice_this_thread(int nice) {
  return setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), nice);
}
