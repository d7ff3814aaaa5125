# SPDX-FileCopyrightText: 2026 The netdp authors
# SPDX-License-Identifier: Apache-2.0
# netdp_add_module(<name> [DEPENDS targets...])
# Builds src/<name>/**/*.cpp into the static library netdp_<name> (exported as
# netdp::<name>), with headers in include/netdp/<name>/. A module's private headers live beside
# its sources and are included from src/ ("accounting/exact/modular_view.hpp"). A module with no
# sources yet is an INTERFACE library, so the layout can grow file by file.
set(NETDP_MODULES "" CACHE INTERNAL "")

function(netdp_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic)
  if(NETDP_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()

function(netdp_add_module name)
  cmake_parse_arguments(ARG "" "" "DEPENDS" ${ARGN})
  file(GLOB_RECURSE _sources CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/${name}/*.cpp)
  set(_target netdp_${name})
  if(_sources)
    add_library(${_target} STATIC ${_sources})
    target_include_directories(${_target} PUBLIC $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
                                                 $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
    target_include_directories(${_target} PRIVATE ${PROJECT_SOURCE_DIR}/src)
    target_link_libraries(${_target} PUBLIC Eigen3::Eigen fmt::fmt ${ARG_DEPENDS})
    netdp_warnings(${_target})
    if(NETDP_UNITY_BUILD)
      set_target_properties(${_target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 16)
    endif()
  else()
    add_library(${_target} INTERFACE)
    target_include_directories(${_target} INTERFACE $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
                                                    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
    target_link_libraries(${_target} INTERFACE Eigen3::Eigen fmt::fmt ${ARG_DEPENDS})
  endif()
  add_library(netdp::${name} ALIAS ${_target})
  set_target_properties(${_target} PROPERTIES EXPORT_NAME ${name})
  set(NETDP_MODULES ${NETDP_MODULES} ${_target} CACHE INTERNAL "")
endfunction()
