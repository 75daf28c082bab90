// Litmus probes: a run of every shape on the GPU (skips with the reason
// when there is no device). The shape table's facts, which need no GPU:
// litmus_shape_table_test.cpp.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cctype>
#include <iostream>
#include <string>

#include "stress/litmus_probe.hpp"

namespace {

using lookback::stress::LitmusShape;
namespace ls = lookback::stress;

std::string gpu_unavailable_reason() {
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    cudaGetLastError();
    return std::string("no usable CUDA device: ") + cudaGetErrorName(err) + ": " +
           cudaGetErrorString(err);
  }
  if (count == 0) return "no CUDA device present";
  return {};
}

class LitmusProbeGpu : public ::testing::TestWithParam<LitmusShape> {};

TEST_P(LitmusProbeGpu, CountsAreConsistentAndForbiddenOutcomesAbsent) {
  const std::string reason = gpu_unavailable_reason();
  if (!reason.empty()) GTEST_SKIP() << reason;

  const LitmusShape shape = GetParam();
  ls::LitmusProbeConfig config;
  config.instances = 200'000;
  config.seed = 7;
  config.budget_seconds = 20;
  ls::LitmusProbeResult r;
  try {
    r = ls::run_litmus_probe(shape, config);
  } catch (const std::exception& e) {
    FAIL() << e.what();
  }

  std::cout << r.name << ": " << r.instances << " instances in " << r.launches << " launch(es) ("
            << r.testing_blocks << " testing + " << r.stress_blocks << " stress blocks), "
            << "outcomes [00 01 10 11] = [" << r.outcomes[0] << ' ' << r.outcomes[1] << ' '
            << r.outcomes[2] << ' ' << r.outcomes[3] << "], weak (" << r.weak_outcome
            << ") = " << r.weak << " = " << r.per_million << " per million"
            << (r.weak_allowed_by_ptx ? "" : " [forbidden by PTX]") << ", " << r.seconds << " s\n";

  EXPECT_EQ(r.shape, shape);
  EXPECT_EQ(r.name, ls::to_string(shape));
  EXPECT_GT(r.instances, 0u);
  EXPECT_GE(r.instances, config.instances);  // the budget is generous
  // The two threads of an instance did overlap: the outcome only an
  // interleaving gives (MP: the flag still 0 but the data already 1; SB: both
  // see the other's store; LB: both load before either stores) was seen, so
  // a weak count of 0 below is evidence, not threads that ran one after the
  // other. (run_litmus_probe itself checks that the outcomes add up.)
  const int interleaved = shape == LitmusShape::SB ? 3 : shape == LitmusShape::LB ? 0 : 1;
  EXPECT_GT(r.outcomes[interleaved], 0u) << r.name << ": no instance overlapped";
  if (!r.weak_allowed_by_ptx)
    EXPECT_EQ(r.weak, 0u) << "FINDING: " << r.name << " showed the outcome " << r.weak_outcome
                          << ", which the PTX memory model forbids, " << r.weak << " times in "
                          << r.instances << " instances";
}

INSTANTIATE_TEST_SUITE_P(AllShapes, LitmusProbeGpu, ::testing::ValuesIn(ls::all_litmus_shapes()),
                         [](const ::testing::TestParamInfo<LitmusShape>& info) {
                           std::string name;
                           for (char c : std::string(ls::to_string(info.param)))
                             if (std::isalnum(static_cast<unsigned char>(c))) name += c;
                           return name;
                         });

}  // namespace
