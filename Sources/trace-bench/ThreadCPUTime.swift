#if canImport(Glibc)
import Glibc
#endif

/// The CPU time the calling thread has used so far, in nanoseconds.
///
/// The benchmarks time what the caller pays with it: wall-clock time would also count the time the
/// kernel gave other threads on the caller's core, which on a two-core machine includes the store's
/// own writer (see `burstCosts(_:events:burst:)`) and other programs.
func threadCPUNanoseconds() -> Int64 {
    var spec = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
    return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
}
