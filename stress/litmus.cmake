# GPU litmus probes (issue 6): MP, SB, LB and MP with fences or release/acquire,
# inter-block at .gpu scope, with weak-outcome counts per million instances.
# Included from stress/CMakeLists.txt; paths are relative to stress/.
add_library(lookback_litmus_probe STATIC src/litmus_probe.cu)
target_include_directories(lookback_litmus_probe PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/include)
target_link_libraries(lookback_litmus_probe PUBLIC lookback::headers lookback_cuda_flags)

# The shape table (CPU) and a run of every shape (GPU: skips without a device).
lookback_add_gtest(NAME litmus_shape_table_test
  SOURCES tests/litmus_shape_table_test.cpp
  LIBS lookback_litmus_probe
  LABELS cpu)
lookback_add_gtest(NAME litmus_probe_test
  SOURCES tests/litmus_probe_test.cu
  LIBS lookback_litmus_probe lookback::headers lookback_cuda_flags
  LABELS gpu)
