#include "solver/cfr_algorithm.h"

namespace hulhe {

TablePrecision default_table_precision(const std::string& algorithm) {
  const bool exact =
      algorithm == "cfr" || algorithm == "cfr+" || algorithm == "dcfr" || algorithm == "cfr-br";
  return exact ? TablePrecision::kFloat64 : TablePrecision::kFloat32;
}

TableLayout default_table_layout(const std::string& algorithm) {
  const bool one_deal = algorithm == "external" || algorithm == "outcome";
  return one_deal ? TableLayout::kBucketMajor : TableLayout::kNodeMajor;
}

}  // namespace hulhe
