#pragma once
// What the process and the machine have: memory, as Linux /proc reports it. Long jobs print
// these so a user sees early whether a run fits. And the CPU time a thread has used.
#include <cstdint>

namespace hulhe {

// Peak resident memory (MiB) since the last reset; reset_peak_rss() restarts the count
// (Linux /proc/self/clear_refs), so a stage's own peak can be measured. 0 where unknown.
double peak_rss_mib();
void reset_peak_rss();

// MemAvailable of /proc/meminfo in bytes (0 where unknown).
std::uint64_t available_memory_bytes();

// CPU seconds the calling thread has used (CLOCK_THREAD_CPUTIME_ID): what benchmarks measure
// on a shared machine.
double thread_cpu_seconds();

}  // namespace hulhe
