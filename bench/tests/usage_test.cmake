# cmake -P helper for the bench_usage_* tests: runs BENCH with ARGS ("|"
# between arguments). With WANT=2 (the default) it passes only if the bench
# exits with status 2 (a usage error) and its stderr says WHY; with
# WANT=accepted, only if it does not exit 2 (a valid command line: 0 on a
# GPU, 1 where there is none).
string(REPLACE "|" ";" args "${ARGS}")
if(NOT DEFINED WANT)
  set(WANT 2)
endif()
execute_process(COMMAND "${BENCH}" ${args} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE err)
if(WANT STREQUAL "accepted")
  if(rc STREQUAL "2")
    message(FATAL_ERROR "lookback_bench ${args}: a valid command line exited 2\n${out}${err}")
  endif()
  return()
endif()
if(NOT rc STREQUAL "2")
  message(FATAL_ERROR "lookback_bench ${args}: exit status ${rc}, want 2\n${out}${err}")
endif()
string(FIND "${err}" "${WHY}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "lookback_bench ${args}: stderr does not say '${WHY}':\n${err}")
endif()
