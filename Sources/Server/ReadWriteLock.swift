import Foundation

/// A reader-writer lock (pthread's) that lets a waiting writer in ahead of new readers, so a
/// steady stream of moves cannot starve the lobby's other decisions.
final class ReadWriteLock: @unchecked Sendable {
  private let lock = UnsafeMutablePointer<pthread_rwlock_t>.allocate(capacity: 1)

  init() {
    var attributes = pthread_rwlockattr_t()
    pthread_rwlockattr_init(&attributes)
    pthread_rwlockattr_setkind_np(
      &attributes, Int32(PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP))
    pthread_rwlock_init(lock, &attributes)
    pthread_rwlockattr_destroy(&attributes)
  }

  deinit {
    pthread_rwlock_destroy(lock)
    lock.deallocate()
  }

  func readLock() { pthread_rwlock_rdlock(lock) }

  func writeLock() { pthread_rwlock_wrlock(lock) }

  func unlock() { pthread_rwlock_unlock(lock) }
}
