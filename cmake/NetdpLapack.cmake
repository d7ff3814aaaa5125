# SPDX-FileCopyrightText: 2026 The netdp authors
# SPDX-License-Identifier: Apache-2.0
# Optional fast dense linear algebra for the random-walk accountant: LAPACKE
# (dsyevd) and CBLAS (dsyrk), e.g. Debian's liblapacke-dev + libopenblas-dev.
# When found, netdp_use_lapack(<target>) links them and defines NETDP_HAVE_LAPACKE;
# otherwise the target keeps using Eigen's solvers (same results, slower).
option(NETDP_USE_LAPACK "Use LAPACKE/CBLAS (OpenBLAS) for dense eigendecompositions when available" ON)

function(netdp_use_lapack target)
  if(NOT NETDP_USE_LAPACK)
    return()
  endif()
  find_path(NETDP_LAPACKE_INCLUDE_DIR lapacke.h)
  find_path(NETDP_CBLAS_INCLUDE_DIR cblas.h PATH_SUFFIXES x86_64-linux-gnu openblas)
  find_library(NETDP_LAPACKE_LIBRARY lapacke)
  find_library(NETDP_CBLAS_LIBRARY NAMES openblas cblas blas)
  find_package(LAPACK QUIET)
  if(NETDP_LAPACKE_INCLUDE_DIR AND NETDP_CBLAS_INCLUDE_DIR AND NETDP_LAPACKE_LIBRARY AND NETDP_CBLAS_LIBRARY
     AND LAPACK_FOUND)
    target_include_directories(${target} PRIVATE ${NETDP_LAPACKE_INCLUDE_DIR} ${NETDP_CBLAS_INCLUDE_DIR})
    target_link_libraries(${target} PUBLIC ${NETDP_LAPACKE_LIBRARY} ${LAPACK_LIBRARIES} ${NETDP_CBLAS_LIBRARY})
    target_compile_definitions(${target} PRIVATE NETDP_HAVE_LAPACKE=1)
    message(STATUS "netdp: ${target} uses LAPACKE ${NETDP_LAPACKE_LIBRARY} and CBLAS ${NETDP_CBLAS_LIBRARY}")
  else()
    message(STATUS "netdp: LAPACKE/CBLAS not found; ${target} uses Eigen's dense solvers")
  endif()
endfunction()
