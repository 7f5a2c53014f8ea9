#pragma once
// Transparent huge pages for large, randomly accessed arrays (the solver's tables). Linux
// backs memory advised with MADV_HUGEPAGE by 2 MiB pages when it is first touched (where
// /sys/kernel/mm/transparent_hugepage/enabled is "madvise" or "always"), so one TLB entry
// covers 512 times the memory. Elsewhere the advice does nothing.
#include <cstddef>

namespace hulhe {

inline constexpr std::size_t kHugePageBytes = std::size_t{2} << 20;
// Smaller arrays are not worth advising: they fit in a few pages of either size.
inline constexpr std::size_t kMinHugePageAdviceBytes = 4 * kHugePageBytes;

// Advises the whole 2 MiB pages inside [data, data + bytes); best effort, no error.
void advise_huge_pages(void* data, std::size_t bytes);

}  // namespace hulhe
