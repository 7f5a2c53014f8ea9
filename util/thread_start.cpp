#include "util/thread_start.h"

#include <omp.h>
#include <pthread.h>

#include <cctype>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "util/input_error.h"

namespace hulhe {
namespace {

// The probe threads wait here until every one of them exists, so that they are all alive at
// once, as OpenMP's team will be.
struct Gate {
  std::mutex mutex;
  std::condition_variable opened;
  bool open = false;
};

void* wait_at_gate(void* arg) {
  Gate& gate = *static_cast<Gate*>(arg);
  std::unique_lock lock(gate.mutex);
  gate.opened.wait(lock, [&] { return gate.open; });
  return nullptr;
}

// libgomp's parse_stacksize: digits, optional spaces, an optional unit (B, K, M, G; K when
// none), optional spaces. Anything else is ignored by libgomp, so it is ignored here too.
std::size_t parse_stack_size(const char* text) {
  if (text == nullptr) return 0;
  const char* p = text;
  while (std::isspace(static_cast<unsigned char>(*p))) ++p;
  if (!std::isdigit(static_cast<unsigned char>(*p))) return 0;
  char* end = nullptr;
  const unsigned long long value = std::strtoull(p, &end, 10);
  p = end;
  while (std::isspace(static_cast<unsigned char>(*p))) ++p;
  // A unit letter: b(ytes), k, m or g(iB), each 10 bits above the one before; none is KiB.
  constexpr std::string_view kUnits = "bkmg";
  int shift = 10;
  const auto unit = kUnits.find(static_cast<char>(std::tolower(static_cast<unsigned char>(*p))));
  if (unit != std::string_view::npos) shift = 10 * static_cast<int>(unit), ++p;
  while (std::isspace(static_cast<unsigned char>(*p))) ++p;
  if (*p != '\0' || value > (~0ULL >> shift)) return 0;
  return static_cast<std::size_t>(value << shift);
}

}  // namespace

std::size_t openmp_stack_size() {
  if (const std::size_t s = parse_stack_size(std::getenv("OMP_STACKSIZE")); s > 0) return s;
  return parse_stack_size(std::getenv("GOMP_STACKSIZE"));
}

void require_thread_start(int threads) {
  if (threads <= 1) return;
  pthread_attr_t attr;
  if (pthread_attr_init(&attr) != 0) return;  // nothing to probe with; OpenMP will tell
  if (const std::size_t stack = openmp_stack_size(); stack > 0)
    pthread_attr_setstacksize(&attr,
                              stack);  // EINVAL below the minimum: libgomp keeps the default too
  Gate gate;
  std::vector<pthread_t> started;
  started.reserve(static_cast<std::size_t>(threads - 1));
  int error = 0;
  for (int i = 1; i < threads && error == 0; ++i) {
    pthread_t t;
    error = pthread_create(&t, &attr, wait_at_gate, &gate);
    if (error == 0) started.push_back(t);
  }
  pthread_attr_destroy(&attr);
  {
    std::lock_guard lock(gate.mutex);
    gate.open = true;
  }
  gate.opened.notify_all();
  for (pthread_t t : started) pthread_join(t, nullptr);
  if (error != 0)
    throw InputError("cannot start " + std::to_string(threads) +
                     " threads: " + std::strerror(error) + " (" +
                     std::to_string(started.size() + 1) + " started); use fewer --threads");
}

int thread_count_or_default(int threads) {
  return threads > 0 ? threads : omp_get_max_threads();
}

}  // namespace hulhe
