#include "writer_urgency.h"

#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

// The kernel's `struct sched_attr` (its first version, 48 bytes; Glibc has no wrapper).
struct writer_sched_attr {
  uint32_t size;
  uint32_t policy;
  uint64_t flags;
  int32_t nice;
  uint32_t priority;
  uint64_t runtime;
  uint64_t deadline;
  uint64_t period;
};

int writer_urgency_ask_slice(unsigned long long nanoseconds) {
#ifdef SYS_sched_setattr
  struct writer_sched_attr attr;
  memset(&attr, 0, sizeof attr);
  attr.size = sizeof attr;
  attr.policy = 0;  // SCHED_OTHER
  attr.runtime = nanoseconds;
  return (int)syscall(SYS_sched_setattr, 0, &attr, 0);
#else
  return -1;
#endif
}
