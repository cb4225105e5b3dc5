# Toolchain of the wheel (pyproject.toml): zig's clang from the `ziglang` PyPI package, linking
# against glibc GS_GLIBC_FLOOR's symbol versions whatever the build machine's glibc is, so that
# the wheel is manylinux_2_28 (the floor of PyTorch's wheels). doc/python.md explains the choice.
#
# The C library headers are zig's; the -dev packages' headers (zlib.h, sqlite3.h, microhttpd.h)
# come from /usr/include after them (-idirafter), so the build machine's newer glibc headers are
# never seen. Libraries are found in the build machine's multiarch folder.
set(GS_GLIBC_FLOOR 2.28 CACHE STRING "oldest glibc the binary runs on")
if(NOT GS_ZIG)
  if(NOT Python_EXECUTABLE) # set by scikit-build-core; python3 for a plain cmake run
    set(Python_EXECUTABLE python3)
  endif()
  execute_process(
    COMMAND "${Python_EXECUTABLE}" -c
            "import os, ziglang; print(os.path.join(os.path.dirname(ziglang.__file__), 'zig'), end='')"
    OUTPUT_VARIABLE zig RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR NOT EXISTS "${zig}")
    message(FATAL_ERROR "zig-cc.cmake: the ziglang package is not installed for ${Python_EXECUTABLE}")
  endif()
  set(GS_ZIG "${zig}" CACHE FILEPATH "zig from the ziglang package")
endif()
# try_compile projects read this file again without the cache: hand them the zig found here.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES GS_ZIG GS_GLIBC_FLOOR)

set(CMAKE_C_COMPILER "${GS_ZIG}" cc)
set(CMAKE_C_COMPILER_TARGET "${CMAKE_HOST_SYSTEM_PROCESSOR}-linux-gnu.${GS_GLIBC_FLOOR}")
set(CMAKE_C_ARCHIVE_CREATE "\"${GS_ZIG}\" ar qc <TARGET> <LINK_FLAGS> <OBJECTS>")
set(CMAKE_C_ARCHIVE_APPEND "\"${GS_ZIG}\" ar q <TARGET> <LINK_FLAGS> <OBJECTS>")
set(CMAKE_C_ARCHIVE_FINISH "\"${GS_ZIG}\" ranlib <TARGET>")
set(CMAKE_C_FLAGS_INIT "-idirafter /usr/include")
if(EXISTS /usr/lib/${CMAKE_HOST_SYSTEM_PROCESSOR}-linux-gnu)
  set(CMAKE_LIBRARY_ARCHITECTURE ${CMAKE_HOST_SYSTEM_PROCESSOR}-linux-gnu)
endif()
