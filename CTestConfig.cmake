# CDash submission is possible (ctest -D Experimental) but never attempted by default:
# the drop site is empty unless the cache variable QCONFORM_CDASH_DROP_SITE names one,
# e.g. cmake -DQCONFORM_CDASH_DROP_SITE=my.cdash.host -DQCONFORM_CDASH_DROP_LOCATION=/submit.php?project=qconform
set(CTEST_PROJECT_NAME "qconform")
set(CTEST_NIGHTLY_START_TIME "00:00:00 UTC")
set(CTEST_DROP_METHOD "https")
set(CTEST_DROP_SITE "${QCONFORM_CDASH_DROP_SITE}")
set(CTEST_DROP_LOCATION "${QCONFORM_CDASH_DROP_LOCATION}")
set(CTEST_DROP_SITE_CDASH TRUE)
