// `hulhe solve` configs (TOML, read from a file: the only reader there is), then the range
// checks the command applies.
#include "fuzz/fuzz_support.h"
#include "game/toml_input.h"
#include "solver/solve_config.h"
#include "solver/solve_config_validation.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace hulhe;
  const std::string path = fuzz::write_temp("solve.toml", fuzz::as_text(data, size));
  fuzz::expect_input_errors_only([&] {
    // As `hulhe solve` does: syntax first (file:line:column), then the typed reader.
    validate_solve_toml(parse_toml_file(path), path);
    validate(SolveConfig::from_file(path), path);
  });
  return 0;
}
