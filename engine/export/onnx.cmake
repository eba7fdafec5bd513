# ONNX export (export/onnx_export.cpp) builds the graph with the ONNX library's protobuf classes and
# checks it with the ONNX checker. Debian: libonnx-dev libprotobuf-dev protobuf-compiler.
# Included from engine/CMakeLists.txt after skynnet_engine is defined. Without the library the
# export is compiled out and exportOnnx() throws a clear Error at run time.
option(SKYNNET_WITH_ONNX "Build the ONNX export (needs libonnx-dev and libprotobuf-dev)" ON)

set(SKYNNET_ONNX_FOUND OFF)
if(SKYNNET_WITH_ONNX)
  # Protobuf first: ONNX's exported targets link to protobuf::libprotobuf, which must exist.
  find_package(Protobuf QUIET)
  if(Protobuf_FOUND AND TARGET protobuf::libprotobuf)
    find_package(ONNX CONFIG QUIET)
  endif()
  if(ONNX_FOUND AND TARGET onnx AND TARGET onnx_proto)
    set(SKYNNET_ONNX_FOUND ON)
  else()
    message(WARNING "ONNX or Protobuf not found: the ONNX export is compiled out "
                    "(install libonnx-dev libprotobuf-dev protobuf-compiler, or set -DSKYNNET_WITH_ONNX=OFF)")
  endif()
endif()

if(SKYNNET_ONNX_FOUND)
  message(STATUS "ONNX export: enabled (ONNX ${ONNX_VERSION}, Protobuf ${Protobuf_VERSION})")
  # The imported targets are directory-scoped; the engine is static, so every executable that
  # links it (tests, app) must see them at link time.
  foreach(t onnx onnx_proto protobuf::libprotobuf)
    get_target_property(global ${t} IMPORTED_GLOBAL)
    if(NOT global)
      set_target_properties(${t} PROPERTIES IMPORTED_GLOBAL TRUE)
    endif()
  endforeach()
  target_link_libraries(skynnet_engine PRIVATE onnx onnx_proto protobuf::libprotobuf)
  set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/onnx_export.cpp ${CMAKE_CURRENT_LIST_DIR}/onnx_sequence_layers.cpp
                              ${CMAKE_CURRENT_LIST_DIR}/onnx_transformer_layers.cpp
                              ${CMAKE_CURRENT_LIST_DIR}/onnx_class_groups.cpp
                              PROPERTIES COMPILE_DEFINITIONS SKYNNET_HAVE_ONNX=1)
else()
  message(STATUS "ONNX export: disabled")
endif()
