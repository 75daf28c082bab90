// The messages a failing call leaves (lookback::last_error_message), above
// all for a binary without code for the device: the first error a new GPU's
// bring-up meets with the presets' sm_90-only build. CPU only: the hint is a
// function of the error and the compute capability.
#include <gtest/gtest.h>

#include <string>

#include "lookback/device/error.hpp"

namespace {

using lookback::detail::arch_hint;

TEST(ArchHint, NewerGpuNamesItsArchitectureAndTheBuildSetting) {
  const std::string h = arch_hint(cudaErrorNoKernelImageForDevice, 10, 0);
  EXPECT_NE(h.find("the device is sm_100"), std::string::npos) << h;
  EXPECT_NE(h.find("nvcc -arch=sm_100 or CMake CUDA_ARCHITECTURES 100,"), std::string::npos) << h;
  EXPECT_NE(h.find("CMake 90 rather than 90-real"), std::string::npos) << h;
}

TEST(ArchHint, MinorVersionCounts) {
  const std::string h = arch_hint(cudaErrorNoKernelImageForDevice, 12, 1);
  EXPECT_NE(h.find("the device is sm_121"), std::string::npos) << h;
  EXPECT_NE(h.find("CUDA_ARCHITECTURES 121,"), std::string::npos) << h;
}

TEST(ArchHint, HopperWithoutItsCodeIsTold) {
  // A binary built for a newer GPU only, run on an H100/H200.
  const std::string h = arch_hint(cudaErrorNoKernelImageForDevice, 9, 0);
  EXPECT_NE(h.find("the device is sm_90,"), std::string::npos) << h;
  EXPECT_NE(h.find("nvcc -arch=sm_90 or CMake CUDA_ARCHITECTURES 90,"), std::string::npos) << h;
}

TEST(ArchHint, OlderGpuIsUnsupportedNotMisbuilt) {
  const std::string h = arch_hint(cudaErrorNoKernelImageForDevice, 8, 6);
  EXPECT_NE(h.find("the device is sm_86"), std::string::npos) << h;
  EXPECT_NE(h.find("need sm_90 or newer"), std::string::npos) << h;
  EXPECT_EQ(h.find("CUDA_ARCHITECTURES"), std::string::npos) << h;
  // Whichever of the two errors: nothing to build for it.
  EXPECT_EQ(arch_hint(cudaErrorUnsupportedPtxVersion, 8, 6), h);
}

TEST(ArchHint, PtxNewerThanTheDriver) {
  const std::string h = arch_hint(cudaErrorUnsupportedPtxVersion, 10, 3);
  EXPECT_NE(h.find("the device is sm_103"), std::string::npos) << h;
  EXPECT_NE(h.find("update the driver"), std::string::npos) << h;
  EXPECT_NE(h.find("nvcc -arch=sm_103, CMake CUDA_ARCHITECTURES 103-real"), std::string::npos) << h;
}

TEST(ArchHint, OtherErrorsGetNone) {
  for (const cudaError_t e : {cudaSuccess, cudaErrorInvalidValue, cudaErrorInvalidDeviceFunction,
                              cudaErrorLaunchFailure, cudaErrorNoDevice, cudaErrorTimeout}) {
    EXPECT_FALSE(lookback::detail::is_image_error(e)) << cudaGetErrorName(e);
    EXPECT_EQ(arch_hint(e, 10, 0), "") << cudaGetErrorName(e);
    EXPECT_EQ(lookback::detail::device_arch_hint(e), "") << cudaGetErrorName(e);
  }
}

TEST(ArchHint, ImageErrorsAreTheTwoThatSayTheBinaryHoldsNoCode) {
  EXPECT_TRUE(lookback::detail::is_image_error(cudaErrorNoKernelImageForDevice));
  EXPECT_TRUE(lookback::detail::is_image_error(cudaErrorUnsupportedPtxVersion));
}

TEST(FailCuda, MessageNamesTheCallAndTheError) {
  const cudaError_t e = lookback::detail::fail_cuda(cudaErrorInvalidValue, "scan kernel launch");
  EXPECT_EQ(e, cudaErrorInvalidValue);
  EXPECT_EQ(std::string(lookback::last_error_message()),
            std::string("lookback: scan kernel launch failed: cudaErrorInvalidValue: ") +
                cudaGetErrorString(cudaErrorInvalidValue));
  lookback::detail::succeed();
  EXPECT_STREQ(lookback::last_error_message(), "");
}

TEST(FailCuda, NoImageMessageKeepsTheErrorFirst) {
  // The hint needs the current device's compute capability: without a
  // device (CI) it is left out, on a GPU machine it follows the error.
  lookback::detail::fail_cuda(cudaErrorNoKernelImageForDevice, "scan kernel launch");
  const std::string m = lookback::last_error_message();
  const std::string head =
      std::string("lookback: scan kernel launch failed: ") +
      "cudaErrorNoKernelImageForDevice: " + cudaGetErrorString(cudaErrorNoKernelImageForDevice);
  EXPECT_EQ(m.substr(0, head.size()), head) << m;
  int devices = 0;
  if (cudaGetDeviceCount(&devices) == cudaSuccess && devices > 0) {
    EXPECT_NE(m.find(" (the device is sm_"), std::string::npos) << m;
  } else {
    cudaGetLastError();  // the count's own error, not this test's to leave behind
    EXPECT_EQ(m, head);
  }
  lookback::detail::succeed();
}

}  // namespace
