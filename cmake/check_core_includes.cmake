# Fails when a file of the core (src/core/) includes a backend's header (src/cpu/, src/cuda/):
# the core reaches backends only through src/core/backend.hpp and its registry.
#   cmake -DSOURCE_DIR=<repository root> -P cmake/check_core_includes.cmake
file(GLOB_RECURSE core_files ${SOURCE_DIR}/src/core/*.cpp ${SOURCE_DIR}/src/core/*.hpp
     ${SOURCE_DIR}/src/core/*.h)
set(offenders "")
foreach(f IN LISTS core_files)
  file(STRINGS ${f} lines REGEX "^[ \t]*#[ \t]*include[ \t]*[\"<]src/(cpu|cuda)/")
  foreach(line IN LISTS lines)
    file(RELATIVE_PATH rel ${SOURCE_DIR} ${f})
    list(APPEND offenders "${rel}: ${line}")
  endforeach()
endforeach()
list(LENGTH core_files count)
if(count EQUAL 0)
  message(FATAL_ERROR "no files under ${SOURCE_DIR}/src/core")
endif()
if(offenders)
  list(JOIN offenders "\n  " text)
  message(FATAL_ERROR "src/core includes backend headers:\n  ${text}")
endif()
message(STATUS "${count} files of src/core include no backend header")
