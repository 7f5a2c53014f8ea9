#include "util/printable_text.h"

#include <gtest/gtest.h>

namespace hulhe {
namespace {

TEST(PrintableText, KeepsAsciiAndValidUtf8) {
  EXPECT_EQ(printable("STATE:0:cc:AhKh|2c2d"), "STATE:0:cc:AhKh|2c2d");
  EXPECT_EQ(printable("Ren\xc3\xa9 \xe2\x82\xac \xf0\x9f\x82\xa1"),
            "Ren\xc3\xa9 \xe2\x82\xac \xf0\x9f\x82\xa1");
}

TEST(PrintableText, EscapesControlBytesAndInvalidUtf8) {
  EXPECT_EQ(printable(std::string("a\0b", 3)), "a\\x00b");
  EXPECT_EQ(printable("\x1b[2J\r\n\x7f"), "\\x1b[2J\\x0d\\x0a\\x7f");
  EXPECT_EQ(printable("\xff\xfe"), "\\xff\\xfe");
  EXPECT_EQ(printable("\xc3"), "\\xc3");                             // truncated sequence
  EXPECT_EQ(printable("\xc0\xaf"), "\\xc0\\xaf");                    // overlong '/'
  EXPECT_EQ(printable("\xed\xa0\x80"), "\\xed\\xa0\\x80");           // UTF-16 surrogate
  EXPECT_EQ(printable("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");  // above U+10FFFF
}

}  // namespace
}  // namespace hulhe

namespace hulhe {
namespace {

// Issue 20: bytes in messages keep their length (a NUL is shown, not the end) and are bounded.
TEST(QuotedText, ShowsEveryByteUpToTheBound) {
  EXPECT_EQ(quoted_bytes(std::string("VER\0SION:2.0.0", 14)), "'VER\\x00SION:2.0.0'");
  EXPECT_EQ(quoted_bytes(""), "''");
  EXPECT_EQ(quoted_bytes(std::string(kQuotedBytes, 'a')),
            "'" + std::string(kQuotedBytes, 'a') + "'");
  EXPECT_EQ(quoted_bytes(std::string(kQuotedBytes + 1, 'a')),
            "'" + std::string(kQuotedBytes, 'a') + "'... (201 bytes)");
  EXPECT_EQ(quoted_bytes(std::string(70000, '\0'), 2), "'\\x00\\x00'... (70000 bytes)");
  // A character is kept whole or left out, never cut into bytes.
  EXPECT_EQ(quoted_bytes("ab\xe2\x82\xac"
                         "cd",
                         3),
            "'ab'... (7 bytes)");
  EXPECT_EQ(quoted_bytes("ab\xe2\x82\xac"
                         "cd",
                         5),
            "'ab\xe2\x82\xac'... (7 bytes)");
}

}  // namespace
}  // namespace hulhe
