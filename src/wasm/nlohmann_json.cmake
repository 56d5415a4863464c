# nlohmann_json::nlohmann_json for Emscripten builds: the header-only library copied from the
# host into the build tree, so only its own headers (not the rest of /usr/include) are visible.
find_path(BL_NLOHMANN_INCLUDE nlohmann/json.hpp
          PATHS /usr/include /usr/local/include NO_CMAKE_FIND_ROOT_PATH NO_DEFAULT_PATH)
if(NOT BL_NLOHMANN_INCLUDE)
  message(FATAL_ERROR "nlohmann/json.hpp not found (scripts/setup native installs it)")
endif()
file(COPY ${BL_NLOHMANN_INCLUDE}/nlohmann DESTINATION ${CMAKE_BINARY_DIR}/third_party)
add_library(nlohmann_json::nlohmann_json INTERFACE IMPORTED)
set_target_properties(nlohmann_json::nlohmann_json PROPERTIES
  INTERFACE_INCLUDE_DIRECTORIES ${CMAKE_BINARY_DIR}/third_party)
