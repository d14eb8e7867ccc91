#pragma once

// The urgency of the journal's writer and of the service thread while a crowd presses: a
// thread's request for a short scheduler slice (Glibc has no wrapper for `sched_setattr`, and
// Swift cannot call the variadic `syscall`).

/// Puts the calling thread under the default policy with a scheduler slice of `nanoseconds`
/// (`sched_setattr`, Linux's custom slice since 6.12: a short one lets the thread's wakes take
/// a busy core at once; 0 asks for the default slice). 0 on success, -1 with errno.
int writer_urgency_ask_slice(unsigned long long nanoseconds);
