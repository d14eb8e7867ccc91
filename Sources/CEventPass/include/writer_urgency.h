#pragma once

// The journal writer's urgency: whether the transport's service thread is held by a large
// crowd's fan-out pass after pass, and a thread's request for a short scheduler slice.

/// Says whether a large crowd's frames wait for the passes after the current one of the
/// service thread (1) or not (0). Any thread; the last word stands.
void writer_urgency_set_crowd_pressing(int pressing);

/// What the service thread said last (0 at first). Any thread.
int writer_urgency_crowd_pressing(void);

/// Puts the calling thread under the default policy with a scheduler slice of `nanoseconds`
/// (`sched_setattr`, Linux's custom slice since 6.12: a short one lets the thread's wakes take
/// a busy core at once). 0 on success, -1 with errno.
int writer_urgency_ask_slice(unsigned long long nanoseconds);
