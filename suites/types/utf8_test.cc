// ValidUtf8 keeps well-formed UTF-8 byte for byte and replaces every other byte by U+FFFD, so a
// backend's message can never make results.json or junit.xml unreadable.
#include <gtest/gtest.h>

#include "oracle/core/utf8.h"

namespace qconform {
namespace {

const std::string kFffd = "\xEF\xBF\xBD";

TEST(ValidUtf8, KeepsWellFormedText) {
  for (const std::string s : {"", "plain ascii", "\xC3\xA9t\xC3\xA9", "\xE2\x82\xAC 5",
                              "\xF0\x9F\x98\x80", "\xF4\x8F\xBF\xBF", "\xED\x9F\xBF"}) {
    EXPECT_EQ(ValidUtf8(s), s);
  }
}

TEST(ValidUtf8, ReplacesEachInvalidByte) {
  EXPECT_EQ(ValidUtf8("a\xFF"
                      "b"),
            "a" + kFffd + "b");
  EXPECT_EQ(ValidUtf8("\xC0\xAF"), kFffd + kFffd);                          // overlong '/'
  EXPECT_EQ(ValidUtf8("\xED\xA0\x80"), kFffd + kFffd + kFffd);              // a surrogate
  EXPECT_EQ(ValidUtf8("\xF4\x90\x80\x80"), kFffd + kFffd + kFffd + kFffd);  // > U+10FFFF
  EXPECT_EQ(ValidUtf8("\xE2\x82"), kFffd + kFffd);                          // truncated at the end
  EXPECT_EQ(ValidUtf8("\xE2\x82x"), kFffd + kFffd + "x");
}

// Every two-byte string: the result is always valid (a second pass changes nothing), and valid
// input is never changed.
TEST(ValidUtf8, IsIdempotentOnEveryTwoByteString) {
  for (int a = 0; a < 256; ++a) {
    for (int b = 0; b < 256; ++b) {
      const std::string s{static_cast<char>(a), static_cast<char>(b)};
      const std::string once = ValidUtf8(s);
      ASSERT_EQ(ValidUtf8(once), once) << a << " " << b;
    }
  }
}

}  // namespace
}  // namespace qconform
