#pragma once
// Can this process start `threads` threads now? libgomp answers a failed pthread_create at
// the start of a parallel region with "libgomp: Thread creation failed" and exit(1), which
// reads as an internal error and loses the run. So every command checks its thread count
// here before it enters OpenMP, and a refusal is bad input (exit status 2) with the reason.
#include <cstddef>

namespace hulhe {

// Starts threads - 1 threads (the caller is the first) at the stack size OpenMP will give
// them, keeps them all alive at once, then joins them. Throws InputError("cannot start N
// threads: <reason>; use fewer") when one cannot be created. threads <= 1 is always fine.
void require_thread_start(int threads);

// The stack size libgomp gives its threads: OMP_STACKSIZE or GOMP_STACKSIZE (a number with
// an optional B, K, M or G suffix; K when none), else 0 for the pthread default.
std::size_t openmp_stack_size();

// `threads` where positive, else OpenMP's default (OMP_NUM_THREADS or the cores).
int thread_count_or_default(int threads);

}  // namespace hulhe
