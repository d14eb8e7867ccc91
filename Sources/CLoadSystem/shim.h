// Linux headers that Swift's Glibc module leaves out, for LoadKit's event loop: epoll and
// timerfd. Declarations only; everything is in the C library.
#include <sys/epoll.h>
#include <sys/timerfd.h>
