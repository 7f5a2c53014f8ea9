// `hulhe solve` configs (TOML, read from a file: the only reader there is), then the range
// checks it applies.
#include "fuzz/fuzz_support.h"
#include "pipeline/solve_config.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace hulhe;
  const std::string path = fuzz::write_temp("solve.toml", fuzz::as_text(data, size));
  fuzz::expect_input_errors_only([&] {
    // As `hulhe solve` does: the reader parses (file:line:column) and validates.
    const SolveConfig c = SolveConfig::from_file(path);
    c.validate(path);
  });
  return 0;
}
