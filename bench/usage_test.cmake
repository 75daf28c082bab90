# cmake -P helper for the bench_usage_* tests: runs BENCH with ARGS ("|"
# between arguments) and passes only if it exits with status 2 (a usage
# error) and its stderr says WHY.
string(REPLACE "|" ";" args "${ARGS}")
execute_process(COMMAND "${BENCH}" ${args} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE err)
if(NOT rc STREQUAL "2")
  message(FATAL_ERROR "lookback_bench ${args}: exit status ${rc}, want 2\n${out}${err}")
endif()
string(FIND "${err}" "${WHY}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "lookback_bench ${args}: stderr does not say '${WHY}':\n${err}")
endif()
