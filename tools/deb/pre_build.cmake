# CPACK_PRE_BUILD_SCRIPTS for the Debian package: runs on the staged install tree before cpack
# packs it. Adds Debian's copyright and changelog and compresses what Debian keeps compressed
# (man pages and the changelog, gzip -9n: no name or time stamp, so the same bytes every build).
file(GLOB_RECURSE staged_binaries "${CPACK_TEMPORARY_INSTALL_DIRECTORY}/*/bin/embdemo")
list(GET staged_binaries 0 staged_binary)
get_filename_component(prefix "${staged_binary}" DIRECTORY)
get_filename_component(prefix "${prefix}" DIRECTORY)
set(doc "${prefix}/share/doc/embdemo")
file(MAKE_DIRECTORY "${doc}")
file(COPY "${CPACK_EMBDEMO_DEB_DIR}/copyright" DESTINATION "${doc}")
configure_file("${CPACK_EMBDEMO_DEB_DIR}/changelog.in" "${doc}/changelog" @ONLY)
file(GLOB man_pages "${prefix}/share/man/man1/*.1")
foreach(file IN LISTS man_pages ITEMS "${doc}/changelog")
  execute_process(COMMAND gzip -9nf "${file}" RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "gzip ${file} failed")
  endif()
endforeach()
