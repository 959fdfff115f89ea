# cpack_project.cmake - read by cpack as it makes the packages (CPACK_PROJECT_CONFIG_FILE): each
# package that needs drover-common depends on drover-common of the version being made, so that
# `cpack -D CPACK_PACKAGE_VERSION=...` makes a consistent set (an upgrade, in package_test.sh).
foreach(component CONTROLLER NODE CLIENT POSTGRES LUA)
  set(CPACK_DEBIAN_${component}_PACKAGE_DEPENDS "drover-common (= ${CPACK_PACKAGE_VERSION})")
endforeach()
