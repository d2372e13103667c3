# What `cmake --install` puts in place and what CPack packages (included by the top-level
# CMakeLists.txt):
# - runtime: the bnsl binary, its man pages (help2man, from `bnsl --help` and each
#   `bnsl SUBCOMMAND --help-all`, when help2man is installed; gzipped, as Debian installs them)
#   and the bundled ALARM sample in share/bnsl/;
# - dev: libbnsl.a, its public headers and a CMake package, so that a C++ program says
#       find_package(bnsl REQUIRED)
#       target_link_libraries(app PRIVATE bnsl::bnsl)
#   (bnslConfig.cmake finds the dependencies a static libbnsl needs, the optional ones only
#   when this build used them).
# `cpack -G DEB` in the build folder makes bnsl_VERSION_ARCH.deb (runtime; its Depends computed
# from the binary's shared libraries by dpkg-shlibdeps) and bnsl-dev_VERSION_ARCH.deb (dev; it
# depends on bnsl and on the Debian -dev packages the CMake package finds).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(BNSL_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/bnsl)
install(TARGETS bnsl RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime)
install(FILES ${PROJECT_SOURCE_DIR}/datasets/alarm-5000.csv ${PROJECT_SOURCE_DIR}/datasets/alarm.bif
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bnsl COMPONENT runtime)
install(TARGETS bnsl_lib EXPORT bnslTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT dev
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/bnsl DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        COMPONENT dev)
install(EXPORT bnslTargets NAMESPACE bnsl:: DESTINATION ${BNSL_CMAKE_DIR} COMPONENT dev)

# The package's optional dependencies are those this build linked.
set(BNSL_CONFIG_WITH_CBC OFF)
set(BNSL_CONFIG_WITH_MPI OFF)
if(BNSL_WITH_CBC AND CBC_FOUND)
  set(BNSL_CONFIG_WITH_CBC ON)
endif()
if(BNSL_WITH_MPI AND MPI_CXX_FOUND)
  set(BNSL_CONFIG_WITH_MPI ON)
endif()
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/bnslConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/bnslConfig.cmake
                              INSTALL_DESTINATION ${BNSL_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/bnslConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/bnslConfig.cmake ${PROJECT_BINARY_DIR}/bnslConfigVersion.cmake
        DESTINATION ${BNSL_CMAKE_DIR} COMPONENT dev)

# Man pages from the --help texts, so they never drift from the options. help2man runs the
# binary found on PATH as `bnsl`, so that the pages show that name rather than the build path.
option(BNSL_MAN "Man pages from --help (when help2man is found)" ON)
find_program(HELP2MAN help2man)
if(BNSL_MAN AND HELP2MAN)
  set(bnsl_man_dir ${PROJECT_BINARY_DIR}/man)
  set(bnsl_man_pages ${bnsl_man_dir}/bnsl.1.gz)
  set(bnsl_man_commands
      COMMAND ${CMAKE_COMMAND} -E make_directory ${bnsl_man_dir}
      COMMAND ${CMAKE_COMMAND} -E env PATH=$<TARGET_FILE_DIR:bnsl>:$ENV{PATH}
              ${HELP2MAN} --no-info --section=1 --version-option=--version
              "--name=Bayesian network structure learning" --output=${bnsl_man_dir}/bnsl.1 bnsl
      COMMAND gzip -9nf ${bnsl_man_dir}/bnsl.1)
  # One page per subcommand (man bnsl-learn), titled and named after it, from --help-all: a
  # man page lists the advanced options too.
  foreach(sub learn score search exact check sample eval generate merge convert)
    string(TOUPPER ${sub} upper)
    set(page ${bnsl_man_dir}/bnsl-${sub}.1)
    list(APPEND bnsl_man_pages ${page}.gz)
    list(APPEND bnsl_man_commands
         COMMAND ${CMAKE_COMMAND} -E env PATH=$<TARGET_FILE_DIR:bnsl>:$ENV{PATH}
                 ${HELP2MAN} --no-info --section=1 --version-option=--version
                 "--help-option=${sub} --help-all" "--name=the ${sub} command of bnsl"
                 --output=${page} bnsl
         COMMAND sed -i -e "s/^\\.TH BNSL /.TH BNSL-${upper} /"
                        -e "s/^bnsl \\\\- /bnsl-${sub} \\\\- /" ${page}
         COMMAND gzip -9nf ${page})
  endforeach()
  add_custom_command(OUTPUT ${bnsl_man_pages} ${bnsl_man_commands} DEPENDS bnsl VERBATIM
                     COMMENT "Man pages from bnsl --help (help2man)")
  add_custom_target(bnsl_man ALL DEPENDS ${bnsl_man_pages})
  install(FILES ${bnsl_man_pages} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT runtime)
elseif(BNSL_MAN)
  message(STATUS "help2man not found: no man pages (install help2man)")
endif()

# Debian packages (cpack -G DEB).
set(CPACK_PACKAGE_NAME bnsl)
set(CPACK_PACKAGE_VENDOR bnsl)
set(CPACK_PACKAGE_CONTACT "bnsl developers <bnsl@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "Bayesian network structure learning for thousands of variables")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_GENERATOR DEB)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL runtime dev)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME bnsl)
set(CPACK_DEBIAN_RUNTIME_DESCRIPTION
    "Bayesian network structure learning for thousands of variables
 Learns the structure of Bayesian networks from complete categorical data under a
 wall-clock budget, and reports every network within a Bayes factor of the best.
 The sample /usr/share/bnsl/alarm-5000.csv: bnsl learn /usr/share/bnsl/alarm-5000.csv -o alarm")
set(CPACK_DEBIAN_DEV_PACKAGE_NAME bnsl-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_DEV_DESCRIPTION
    "Bayesian network structure learning: static library, headers and CMake package
 find_package(bnsl) then target_link_libraries(app bnsl::bnsl).")
set(bnsl_dev_depends "bnsl (= ${PROJECT_VERSION}), g++, cmake, pkg-config, libxxhash-dev, nlohmann-json3-dev")
if(BNSL_CONFIG_WITH_CBC)
  string(APPEND bnsl_dev_depends ", coinor-libcbc-dev")
endif()
if(BNSL_CONFIG_WITH_MPI)
  string(APPEND bnsl_dev_depends ", libopenmpi-dev")
endif()
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS "${bnsl_dev_depends}")
include(CPack)
