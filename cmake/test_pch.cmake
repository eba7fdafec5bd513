# A test binary spends about as long parsing Qt Test, Eigen and nlohmann/json as compiling its own
# code (tst_run_history: 15.5 s for its #include lines alone, 22.7 s in all), so each group of
# tests shares one precompiled header, parsed once. GCC uses a PCH only where every macro defined
# when it was made is defined the same way, so it is made by a target of its own with only the
# definitions every test of the group has (a test's own, like SKYNNET_CLI_PATH, appear in none of
# these headers and do not matter). The engine tests and the UI tests are two groups: with Qt
# Widgets linked, <QtTest> holds more (QT_WIDGETS_LIB).
set(SKYNNET_TEST_PCH_HEADERS
    <QtTest> <QDir> <QFile> <QTemporaryDir> <QProcess> <QJsonDocument> <QJsonObject> <QJsonArray>
    <Eigen/Core> <nlohmann/json.hpp>
    <algorithm> <cmath> <functional> <map> <memory> <optional> <string> <vector>)

# skynnet_share_test_pch(HOST LIBRARIES <libs> [INCLUDES <dirs>] TESTS <tests>): HOST is made with
# the libraries and include directories every test of the group has, and the tests reuse its PCH.
function(skynnet_share_test_pch host)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "LIBRARIES;INCLUDES;TESTS")
  if(NOT SKYNNET_PCH OR NOT arg_TESTS)
    return()
  endif()
  file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/${host}.cpp "// The precompiled header's host (cmake/test_pch.cmake).\n")
  add_library(${host} OBJECT ${CMAKE_CURRENT_BINARY_DIR}/${host}.cpp)
  target_link_libraries(${host} PRIVATE ${arg_LIBRARIES})
  target_include_directories(${host} PRIVATE ${arg_INCLUDES})
  target_compile_definitions(${host} PRIVATE SKYNNET_SOURCE_DIR="${CMAKE_SOURCE_DIR}" SKYNNET_BINARY_DIR="${CMAKE_BINARY_DIR}")
  target_precompile_headers(${host} PRIVATE ${SKYNNET_TEST_PCH_HEADERS} ${SKYNNET_TEST_PCH_EXTRA})
  foreach(t ${arg_TESTS})
    target_precompile_headers(${t} REUSE_FROM ${host})
    # AUTOMOC's file is empty for a test (its moc is included by the test's .cpp): loading the PCH
    # (about 300 MB) would be its whole cost.
    set_source_files_properties(${CMAKE_CURRENT_BINARY_DIR}/${t}_autogen/mocs_compilation.cpp
                                PROPERTIES SKIP_PRECOMPILE_HEADERS ON)
  endforeach()
endfunction()
