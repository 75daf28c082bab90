// CHECK(expr) for the experiment drivers in bench/explore/: a failed CUDA
// call prints where and why, and the program exits with status 1.
#pragma once

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#define CHECK(expr)                                                                             \
  do {                                                                                          \
    const cudaError_t e_ = (expr);                                                              \
    if (e_ != cudaSuccess) {                                                                    \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #expr, cudaGetErrorName(e_)); \
      std::exit(1);                                                                             \
    }                                                                                           \
  } while (0)
