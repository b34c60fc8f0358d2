// report::Json, the one way the report quotes text for JSON: printable ASCII as it is, every
// other byte escaped, invalid UTF-8 replaced (a backend's message may hold any bytes).
#include <gtest/gtest.h>

#include "report/text.h"

namespace qconform::report {
namespace {

TEST(JsonText, QuotesPlainTextAsItIs) {
  EXPECT_EQ(Json(""), "\"\"");
  EXPECT_EQ(Json("ql21-ties-m2^-1 {x: [1, 2]}"), "\"ql21-ties-m2^-1 {x: [1, 2]}\"");
}

TEST(JsonText, EscapesWhatJsonCannotHoldPlain) {
  EXPECT_EQ(Json("a\"b"), "\"a\\\"b\"");
  EXPECT_EQ(Json("a\\b"), "\"a\\\\b\"");
  EXPECT_EQ(Json("a\nb\tc"), "\"a\\nb\\tc\"");
  EXPECT_EQ(Json(std::string("a\x01") + "b"), "\"a\\u0001b\"");
  EXPECT_EQ(Json("\x7f"), "\"\x7f\"");                    // DEL is valid in a JSON string
  EXPECT_EQ(Json("caf\xc3\xa9"), "\"caf\xc3\xa9\"");      // UTF-8 kept
  EXPECT_NE(Json("bad \xff byte"), "\"bad \xff byte\"");  // invalid UTF-8 replaced
}

}  // namespace
}  // namespace qconform::report
