// Hand ranges of `hulhe equity` ("QQ+,AKs:0.5", "A5s-A2s", "random", ...).
#include "fuzz/fuzz_support.h"
#include "game/equity/range.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace hulhe;
  fuzz::expect_input_errors_only([&] { (void)Range::parse(fuzz::as_text(data, size)); });
  return 0;
}
