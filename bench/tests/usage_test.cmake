# cmake -P helper for the bench_usage_* and flag_latency_usage_* tests: runs
# the program BENCH with ARGS ("|" between arguments). With WANT=2 (the
# default) it passes only if the program exits with status 2 (a usage
# error) and its stderr says WHY; with WANT=accepted, only if it exits 0
# (on a GPU) or 1 saying that it needs one (a valid command line on a
# machine without a GPU): a crash, or any other failure, fails the test.
string(REPLACE "|" ";" args "${ARGS}")
if(NOT DEFINED WANT)
  set(WANT 2)
endif()
get_filename_component(program "${BENCH}" NAME)
execute_process(COMMAND "${BENCH}" ${args} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE err)
if(WANT STREQUAL "accepted")
  if(rc STREQUAL "0")
    return()
  endif()
  string(FIND "${err}" "the benchmark needs a GPU" no_gpu)
  if(NOT rc STREQUAL "1" OR no_gpu EQUAL -1)
    message(FATAL_ERROR "${program} ${args}: a valid command line exited ${rc} (want 0, or 1 "
                        "where there is no GPU)\n${out}${err}")
  endif()
  return()
endif()
if(NOT rc STREQUAL "2")
  message(FATAL_ERROR "${program} ${args}: exit status ${rc}, want 2\n${out}${err}")
endif()
string(FIND "${err}" "${WHY}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "${program} ${args}: stderr does not say '${WHY}':\n${err}")
endif()
