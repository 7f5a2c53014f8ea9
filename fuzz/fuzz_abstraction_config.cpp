// `hulhe abstract` configs (TOML): parsed configs print to TOML that parses back equal.
#include "abstraction/abstraction_config.h"
#include "fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace hulhe;
  fuzz::expect_input_errors_only([&] {
    const AbstractionConfig c =
        AbstractionConfig::from_string(std::string(fuzz::as_text(data, size)), "<fuzz>", "/base");
    for (int r = 0; r < 4; ++r) (void)c.describe(r);
    (void)c.hash();
  });
  return 0;
}
