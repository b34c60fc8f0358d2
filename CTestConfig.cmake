# CDash submission is possible but never attempted by default: the drop site is empty unless
# QCONFORM_CDASH_DROP_SITE names one (a cache variable for `ctest -D Experimental` in a build
# directory, or a -D of cmake/dashboard.cmake), e.g.
#   cmake -DQCONFORM_CDASH_DROP_SITE=my.cdash.host -DQCONFORM_CDASH_DROP_LOCATION=/submit.php?project=qconform
set(CTEST_PROJECT_NAME "qconform")
set(CTEST_NIGHTLY_START_TIME "00:00:00 UTC")
if(QCONFORM_CDASH_DROP_METHOD)
  set(CTEST_DROP_METHOD "${QCONFORM_CDASH_DROP_METHOD}")
else()
  set(CTEST_DROP_METHOD "https")
endif()
set(CTEST_DROP_SITE "${QCONFORM_CDASH_DROP_SITE}")
set(CTEST_DROP_LOCATION "${QCONFORM_CDASH_DROP_LOCATION}")
set(CTEST_DROP_SITE_CDASH TRUE)
