# DroverPackage.cmake - Debian packages from this tree (cpack -G DEB in the build directory), one
# per component: drover-controller (droverctld and its unit), drover-node (droverd, drover-pmix,
# its unit), drover-client (the commands), drover-common (the plugins every daemon loads, the
# tmpfiles.d entry, logrotate file and documentation), drover-dev (the SDK), and
# drover-plugins-postgres / drover-plugins-lua for the plugins that pull a library of their own.
#
# The packages install under CMAKE_INSTALL_PREFIX, the prefix the programs were built for (the
# plugin directory, the units' paths): configure with -DCMAKE_INSTALL_PREFIX=/usr for packages
# that install where Debian's do.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME drover)
set(CPACK_PACKAGE_VENDOR "Drover")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Drover workload manager")
set(CPACK_PACKAGING_INSTALL_PREFIX ${CMAKE_INSTALL_PREFIX})
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "Drover developers <${DROVER_MAINTAINER_EMAIL}>")
set(CPACK_STRIP_FILES ON) # Debian ships stripped programs
set(CPACK_DEBIAN_PACKAGE_SECTION admin)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_COMPONENTS_ALL controller node client common dev postgres lua)

# Which packages depend on drover-common (of their own version) is set as cpack runs.
set(CPACK_PROJECT_CONFIG_FILE ${PROJECT_SOURCE_DIR}/packaging/cpack_project.cmake)
set(scripts ${PROJECT_BINARY_DIR}/packaging)
function(drover_package component name summary)
  string(TOUPPER ${component} C)
  set(CPACK_DEBIAN_${C}_PACKAGE_NAME ${name} PARENT_SCOPE)
  set(CPACK_COMPONENT_${C}_DESCRIPTION "${summary}" PARENT_SCOPE)
endfunction()
drover_package(controller drover-controller "Drover controller (droverctld)")
drover_package(node drover-node "Drover node daemon (droverd) and PMIx server")
drover_package(client drover-client "Drover commands (sbatch, squeue, srun, ... as Slurm names them)")
drover_package(common drover-common "Drover plugins, service files and documentation")
drover_package(dev drover-dev "Drover SDK: plugin headers and CMake package")
drover_package(postgres drover-plugins-postgres "Drover accounting/postgres plugin")
drover_package(lua drover-plugins-lua "Drover job_submit/lua plugin")
set(CPACK_DEBIAN_CONTROLLER_PACKAGE_CONTROL_EXTRA ${scripts}/controller/postinst
    ${scripts}/controller/prerm ${scripts}/controller/postrm)
set(CPACK_DEBIAN_NODE_PACKAGE_CONTROL_EXTRA ${scripts}/node/postinst ${scripts}/node/prerm
    ${scripts}/node/postrm)
set(CPACK_DEBIAN_COMMON_PACKAGE_CONTROL_EXTRA ${scripts}/common/postinst ${scripts}/common/postrm)
include(CPack)
