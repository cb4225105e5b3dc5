# The agent: the shared object `gpuscope run` injects (CUDA_INJECTION64_PATH, NVTX_INJECTION64_PATH).
# It needs the CUPTI and NVTX headers of a CUDA toolkit, but no CUDA library at link time: libcupti
# is found with dlopen in the target. Without the headers the agent and its tests are left out.
find_path(GS_CUPTI_INCLUDE cupti_activity.h
          HINTS $ENV{CUDA_HOME}/include /usr/local/cuda/include /usr/local/cuda/extras/CUPTI/include)
find_path(GS_NVTX_INCLUDE nvtx3/nvToolsExt.h
          HINTS $ENV{CUDA_HOME}/include /usr/local/cuda/include)
file(GLOB GS_AGENT_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/agent/*.c)
# The record structs are read as CUDA 13 declares them (older CUPTIs write prefixes of them), so
# the headers must be CUDA 13's; the agent still runs against a CUDA 12 libcupti.
set(GS_CUPTI_VERSION 0)
if(GS_CUPTI_INCLUDE AND EXISTS ${GS_CUPTI_INCLUDE}/cupti_version.h)
  file(STRINGS ${GS_CUPTI_INCLUDE}/cupti_version.h GS_CUPTI_VERSION_LINE
       REGEX "^#define CUPTI_API_VERSION [0-9]+")
  string(REGEX REPLACE ".* ([0-9]+)$" "\\1" GS_CUPTI_VERSION "${GS_CUPTI_VERSION_LINE}")
endif()
if(GS_CUPTI_INCLUDE AND GS_CUPTI_VERSION LESS 130000)
  message(WARNING "CUPTI headers at ${GS_CUPTI_INCLUDE} are older than CUDA 13 (API ${GS_CUPTI_VERSION}): "
                  "the agent for 'gpuscope run' needs CUDA 13 headers (set CUDA_HOME)")
  unset(GS_CUPTI_INCLUDE CACHE)
  set(GS_CUPTI_INCLUDE "")
endif()
if(GS_CUPTI_INCLUDE AND GS_NVTX_INCLUDE AND GS_AGENT_SOURCES)
  set(GS_HAVE_AGENT ON)
  # One object library feeds the shared object and the unit tests.
  add_library(gsagent_obj OBJECT ${GS_AGENT_SOURCES})
  target_include_directories(gsagent_obj PUBLIC ${CMAKE_SOURCE_DIR}/src)
  target_include_directories(gsagent_obj SYSTEM PUBLIC ${GS_CUPTI_INCLUDE} ${GS_NVTX_INCLUDE})
  set_target_properties(gsagent_obj PROPERTIES POSITION_INDEPENDENT_CODE ON
                        C_VISIBILITY_PRESET hidden)
  # The format code and the hash table are shared with the CLI; the agent gets its own
  # position-independent copy.
  add_library(gsagent_format OBJECT ${CMAKE_SOURCE_DIR}/src/common/gst_format.c
              ${CMAKE_SOURCE_DIR}/src/common/gst_writer.c ${CMAKE_SOURCE_DIR}/src/common/out_pattern.c
              ${CMAKE_SOURCE_DIR}/src/common/step_schedule.c ${CMAKE_SOURCE_DIR}/src/common/ondemand.c
              ${CMAKE_SOURCE_DIR}/src/common/hashtab.c)
  target_include_directories(gsagent_format PUBLIC ${CMAKE_SOURCE_DIR}/src)
  set_target_properties(gsagent_format PROPERTIES POSITION_INDEPENDENT_CODE ON
                        C_VISIBILITY_PRESET hidden)
  add_library(gpuscope_agent SHARED $<TARGET_OBJECTS:gsagent_obj> $<TARGET_OBJECTS:gsagent_format>)
  target_link_libraries(gpuscope_agent PRIVATE Threads::Threads ${CMAKE_DL_LIBS})
  # No undefined symbols: everything it uses comes from libc, libdl and libpthread. (Under the
  # sanitizers their runtime comes from the executable, so the check cannot apply.)
  if(NOT GS_SANITIZE AND NOT GS_FUZZ)
    target_link_options(gpuscope_agent PRIVATE -Wl,--no-undefined)
  endif()
  # The launcher looks for the agent beside its own binary.
  set_target_properties(gpuscope_agent PROPERTIES LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR})
  add_dependencies(gpuscope gpuscope_agent)
  # The Python hooks (sitecustomize.py and the torch part) beside the agent, where the launcher
  # looks for them (src/cmd/run_session.c); copied at build time so that edits reach the build.
  file(GLOB GS_PYTHON_HOOKS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/agent/python-hooks/*.py)
  set(GS_PYTHON_HOOKS_OUT)
  foreach(py ${GS_PYTHON_HOOKS})
    get_filename_component(py_name ${py} NAME)
    set(out ${CMAKE_BINARY_DIR}/python-hooks/${py_name})
    add_custom_command(OUTPUT ${out} COMMAND ${CMAKE_COMMAND} -E copy ${py} ${out} DEPENDS ${py})
    list(APPEND GS_PYTHON_HOOKS_OUT ${out})
  endforeach()
  add_custom_target(gpuscope_python_hooks ALL DEPENDS ${GS_PYTHON_HOOKS_OUT})
  add_dependencies(gpuscope gpuscope_python_hooks)
  # For unit tests: the agent's objects in a static library (the format comes from gscore).
  add_library(gsagent_test STATIC $<TARGET_OBJECTS:gsagent_obj>)
  target_link_libraries(gsagent_test PUBLIC gscore Threads::Threads ${CMAKE_DL_LIBS})
  target_include_directories(gsagent_test SYSTEM PUBLIC ${GS_CUPTI_INCLUDE} ${GS_NVTX_INCLUDE})
else()
  set(GS_HAVE_AGENT OFF)
  message(WARNING "CUPTI/NVTX headers not found (set CUDA_HOME): the agent for 'gpuscope run' is not built")
endif()
