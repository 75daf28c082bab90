#include "lookback/model/litmus.hpp"

namespace lookback::model {
int run_litmus_file(const std::string&, MemoryModel, bool, std::ostream&, std::ostream& err) {
  err << "lookback-check: litmus support is not built yet\n";
  return 2;
}
int run_litmus_suite(const std::string&, bool, std::ostream&, std::ostream& err) {
  err << "lookback-check: litmus support is not built yet\n";
  return 2;
}
}  // namespace lookback::model
