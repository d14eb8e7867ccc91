#include "event_pass.h"

#include <stddef.h>
#include <sys/epoll.h>

// libev's epoll backend asks for as many events as its array holds, and the array grows to the
// largest number ever ready at once; each event then runs its lws callback before the loop
// looks at anything else. Ten thousand sockets closed by their peers at once (a crowd that
// drops and comes back) made one pass of some 10,000 closes, 300 ms, with the players' moves
// waiting behind it. libev has no setting for this, so the executable defines `epoll_wait`
// itself: libev's call resolves to this one (an executable's definition comes first), which
// asks the kernel for at most the calling thread's cap. Events left over stay ready in the
// kernel and come at the next wait. The service thread sets its cap before each wait, fewer
// while events cost much (`PassPacing`), from the events its last wait took.
static _Thread_local int events_cap;
// How many events the calling thread's last wait handed over.
static _Thread_local int events_taken;

void event_pass_cap_events(int cap) { events_cap = cap > 0 ? cap : 0; }

int event_pass_events_cap(void) { return events_cap; }

int event_pass_events_taken(void) { return events_taken; }

int epoll_wait(int epfd, struct epoll_event *events, int maxevents, int timeout) {
  if (events_cap > 0 && maxevents > events_cap) maxevents = events_cap;
  int count = epoll_pwait(epfd, events, maxevents, timeout, NULL);
  events_taken = count > 0 ? count : 0;
  return count;
}

int event_pass_first_new(void) { return epoll_create1(EPOLL_CLOEXEC); }

int event_pass_first_add(int set, int fd) {
  struct epoll_event event = {.events = EPOLLIN, .data.fd = fd};
  return epoll_ctl(set, EPOLL_CTL_ADD, fd, &event);
}

int event_pass_first_remove(int set, int fd) {
  return epoll_ctl(set, EPOLL_CTL_DEL, fd, NULL);
}

int event_pass_first_ready(int set, int *fds, int max) {
  struct epoll_event events[64];
  if (max > 64) max = 64;
  int count = epoll_pwait(set, events, max, 0, NULL);
  for (int index = 0; index < count; index++) fds[index] = events[index].data.fd;
  return count;
}
