#include "util/toml_input.h"

#include <gtest/gtest.h>

#include <fstream>

#include "tests/support/temp_folder.h"
#include "tests/support/test_files.h"
#include "util/input_error.h"

namespace hulhe {
namespace {

using testing::error_of;

TEST(TomlInput, ParsesAValidDocument) {
  const toml::value v = parse_toml("a = 1\n[t]\nb = \"x\"\n", "<string>");
  EXPECT_EQ(v.at("a").as_integer(), 1);
  EXPECT_EQ(v.at("t").at("b").as_string().str, "x");
}

TEST(TomlInput, SyntaxErrorsNameFileLineAndColumnOnOneLine) {
  const std::string e = error_of([] { parse_toml("a = 1\nb = 2\nc = \"open\n", "cfg.toml"); });
  EXPECT_EQ(e.rfind("cfg.toml:3:", 0), 0U) << e;
  EXPECT_NE(e.find("not valid TOML"), std::string::npos) << e;
  EXPECT_EQ(e.find('\n'), std::string::npos) << e;
  const std::string dup = error_of([] { parse_toml("a = 1\na = 2\n", "cfg.toml"); });
  EXPECT_EQ(dup.rfind("cfg.toml:", 0), 0U) << dup;
  // Binary garbage is a syntax error too, never another exception.
  EXPECT_NE(error_of([] { parse_toml(std::string("\0\xff\x01=", 4), "bin"); }), "");
}

// The fuzzer's finding: a literal string holding a byte that is not UTF-8 made toml11 3.7
// read past its buffer (ToruNiina/toml11#199). Such a document is refused before parsing,
// with the position of the byte; valid UTF-8 in strings and comments is accepted.
TEST(TomlInput, NonUtf8IsRefusedWithItsPosition) {
  EXPECT_EQ(error_of([] { parse_toml("a = 1\nb = 'x\xa3y'\n", "cfg.toml"); }),
            "cfg.toml:2:7: not valid TOML: not UTF-8 (byte \\xa3)");
  EXPECT_EQ(error_of([] { parse_toml("'Jo\xa3\\n", "k.toml"); }),
            "k.toml:1:4: not valid TOML: not UTF-8 (byte \\xa3)");
  EXPECT_EQ(error_of([] { parse_toml("c = '\xe2\x82'\n", "t.toml"); }),
            "t.toml:1:6: not valid TOML: not UTF-8 (byte \\xe2)");
  const toml::value v = parse_toml("# caf\xc3\xa9\nname = 'na\xc3\xafve \xe2\x82\xac'\n", "u.toml");
  EXPECT_EQ(v.at("name").as_string().str, "na\xc3\xafve \xe2\x82\xac");
}

TEST(TomlInput, FilesMustBeRegular) {
  testing::TempFolder dir;
  EXPECT_NE(error_of([&] { parse_toml_file(dir.path()); }).find("is a directory"),
            std::string::npos);
  EXPECT_NE(error_of([] { parse_toml_file("/dev/zero"); }).find("not a regular file"),
            std::string::npos);
  std::ofstream(dir / "ok.toml") << "x = 2\n";
  EXPECT_EQ(parse_toml_file(dir / "ok.toml").at("x").as_integer(), 2);
}

}  // namespace
}  // namespace hulhe
