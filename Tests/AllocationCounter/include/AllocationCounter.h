#pragma once

/// Heap allocations made by the calling thread, counted while counting is on.
///
/// Test-only: this target defines malloc, calloc, realloc, posix_memalign and aligned_alloc for
/// the whole test binary. Each counts (when its thread asked) and calls glibc's own allocator,
/// so nothing else changes.
void st_allocations_begin(void);
/// Stops counting on this thread and returns how many allocations it made since begin.
long st_allocations_end(void);
