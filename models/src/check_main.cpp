// lookback-check: the bounded model checker's command line.
//   exit 0: pass (or, with --all, every variant passes and every mutant is
//           killed as expected); 1: a property violated (or --all mismatch);
//   2: usage or input error.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "lookback/model/cli.hpp"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  return lookback::model::run_cli(args, std::cout, std::cerr);
}
