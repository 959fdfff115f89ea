# DroverPlugin.cmake - drover_add_plugin(TYPE NAME SOURCES... [LIBS ...] [COMPONENT c]) builds an
# in-tree plugin. COMPONENT is its package's (cmake/DroverPackage.cmake): "common" unless the
# plugin pulls a heavy dependency and has a package of its own.
#
# The shared object is <type>_<name>.so (Slurm's naming: SelectType=select/linear loads
# select_linear.so), exports only drover_plugin_entry, and must resolve every symbol at link time.
function(drover_add_plugin type name)
  cmake_parse_arguments(P "" "COMPONENT" "SOURCES;LIBS" ${ARGN})
  if(NOT P_COMPONENT)
    set(P_COMPONENT common)
  endif()
  set(target plugin_${type}_${name})
  add_library(${target} MODULE ${P_SOURCES})
  target_link_libraries(${target} PRIVATE drover_sdk drover_warnings ${P_LIBS})
  set_target_properties(${target} PROPERTIES
    PREFIX ""
    OUTPUT_NAME ${type}_${name}
    LIBRARY_OUTPUT_DIRECTORY ${DROVER_BUILD_PLUGIN_DIR}
    C_VISIBILITY_PRESET hidden
    CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON)
  target_link_options(${target} PRIVATE -Wl,-z,defs
    -Wl,--version-script=${PROJECT_SOURCE_DIR}/cmake/plugin.map)
  install(TARGETS ${target} LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/drover
          COMPONENT ${P_COMPONENT})
  set_property(GLOBAL APPEND PROPERTY DROVER_PLUGIN_TARGETS ${target})
endfunction()
