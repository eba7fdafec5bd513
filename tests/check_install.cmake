# `cmake --install` into a scratch prefix, then checks the desktop integration it installed: the
# programs, the menu entry, the MIME types it claims (defined by the installed XML, with the
# globs), the icon, and the example project beside the data it refers to. Where
# update-mime-database ran, its globs file must map both suffixes, which also proves it read the XML.
# Usage: cmake -DBUILD_DIR=... -DPREFIX=... -P check_install.cmake
file(REMOVE_RECURSE "${PREFIX}")
execute_process(COMMAND "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${PREFIX}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc)
  message(FATAL_ERROR "cmake --install failed (${rc}):\n${out}\n${err}")
endif()

foreach(f bin/skynnet bin/skynnet-cli share/applications/skynnet.desktop share/mime/packages/skynnet.xml
          share/icons/hicolor/scalable/apps/skynnet.svg share/skynnet/projects/wine-class-groups.skynnet
          share/skynnet/datasets/wine.csv)
  if(NOT EXISTS "${PREFIX}/${f}")
    message(FATAL_ERROR "cmake --install did not install ${f}")
  endif()
endforeach()

file(READ "${PREFIX}/share/applications/skynnet.desktop" desktop)
foreach(line "Exec=skynnet %f" "Icon=skynnet" "Type=Application"
             "MimeType=application/x-skynnet-project;application/x-skynnet-model;")
  string(FIND "${desktop}" "\n${line}\n" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "skynnet.desktop lacks the line '${line}'")
  endif()
endforeach()

file(READ "${PREFIX}/share/mime/packages/skynnet.xml" mime)
foreach(pair "application/x-skynnet-project=*.skynnet" "application/x-skynnet-model=*.skym")
  string(REPLACE "=" ";" parts "${pair}")
  list(GET parts 0 type)
  list(GET parts 1 glob)
  string(REGEX MATCH "<mime-type type=\"${type}\">[^<]*<comment>[^<]+</comment>[^<]*<glob pattern=\"\\${glob}\"/>" found "${mime}")
  if(NOT found)
    message(FATAL_ERROR "skynnet.xml does not give ${type} a comment and the glob ${glob}")
  endif()
  if(EXISTS "${PREFIX}/share/mime/globs2")
    file(READ "${PREFIX}/share/mime/globs2" globs)
    string(FIND "${globs}" ":${type}:${glob}" at)
    if(at EQUAL -1)
      message(FATAL_ERROR "update-mime-database did not register ${glob} as ${type}")
    endif()
  endif()
endforeach()
message(STATUS "installed into ${PREFIX}: programs, desktop entry, MIME types, icon, example project")
