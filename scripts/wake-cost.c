// What a wake between two threads costs on this machine: two threads hand a token back and forth
// as the lobby's service thread and the journal's writer do for each commit (a futex-backed
// condition one way, an eventfd read through epoll_wait the other, as lws's cancel-service
// does). Prints the CPU time of both threads per round trip (two wakes).
//
//   cc -O2 -o /tmp/wake-cost scripts/wake-cost.c -lpthread
//   /tmp/wake-cost 20000              # round trips back to back
//   /tmp/wake-cost 5000 200           # 200 us apart, as the moves of scenario a
//   /tmp/wake-cost 5000 200 alone     # the sleeps alone, to subtract
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static int pending = 0, efd, n;
static void *writer(void *arg) {
  for (int i = 0; i < n; i++) {
    pthread_mutex_lock(&m);
    while (!pending) pthread_cond_wait(&c, &m);
    pending = 0;
    pthread_mutex_unlock(&m);
    uint64_t one = 1;
    if (write(efd, &one, 8) != 8) abort();
  }
  return 0;
}
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec / 1e9; }
int main(int argc, char **argv) {
  n = argc > 1 ? atoi(argv[1]) : 20000;
  efd = eventfd(0, EFD_NONBLOCK);
  int ep = epoll_create1(0);
  struct epoll_event ev = {.events = EPOLLIN}; epoll_ctl(ep, EPOLL_CTL_ADD, efd, &ev);
  pthread_t t; pthread_create(&t, 0, writer, 0);
  struct rusage r0, r1; getrusage(RUSAGE_SELF, &r0); double w0 = now();
  int alone = argc > 3;  // the sleeps alone, to subtract
  if (alone) { pthread_mutex_lock(&m); pending = 1; pthread_cond_signal(&c); pthread_mutex_unlock(&m); n = 1; }
  int rounds = argc > 1 ? atoi(argv[1]) : 20000;
  for (int i = 0; i < rounds; i++) {
    if (alone) { struct timespec s = {0, atoi(argv[2]) * 1000}; nanosleep(&s, 0); continue; }
    pthread_mutex_lock(&m); pending = 1; pthread_cond_signal(&c); pthread_mutex_unlock(&m);
    struct epoll_event out; while (epoll_wait(ep, &out, 1, -1) != 1) {}
    uint64_t v; if (read(efd, &v, 8) != 8) abort();
    // The gap between moves in scenario a (200 us): both threads go to sleep between round trips.
    if (argc > 2) { struct timespec s = {0, atoi(argv[2]) * 1000}; nanosleep(&s, 0); }
  }
  double w1 = now(); getrusage(RUSAGE_SELF, &r1); pthread_join(t, 0);
  double cpu = (r1.ru_utime.tv_sec - r0.ru_utime.tv_sec) + (r1.ru_stime.tv_sec - r0.ru_stime.tv_sec)
    + ((r1.ru_utime.tv_usec - r0.ru_utime.tv_usec) + (r1.ru_stime.tv_usec - r0.ru_stime.tv_usec)) / 1e6;
  printf("rounds %d%s: CPU %.2f us each (both threads), wall %.2f us each%s\n", rounds, alone ? " (sleep only)" : "", cpu / rounds * 1e6, (w1 - w0) / rounds * 1e6, argc > 2 ? " incl. the sleep" : "");
  return 0;
}
