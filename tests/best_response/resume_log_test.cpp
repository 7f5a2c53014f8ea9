// The hold'em best response's resume file (best_response/holdem/resume_log.h): records come
// back as written, a torn record is dropped, and a file of another run is refused.
#include "best_response/holdem/resume_log.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "tests/support/temp_folder.h"
#include "util/input_error.h"

namespace hulhe {
namespace {

class ResumeLogTest : public ::testing::Test {
 protected:
  testing::TempFolder dir_;
  std::string path_ = dir_ / "run.resume";
};

TEST_F(ResumeLogTest, RecordsComeBackAndATornOneIsDropped) {
  {
    ResumeLog log(path_, 42, 5, 3);
    EXPECT_TRUE(log.take_records().empty());
    const double a[3] = {1.0, 2.0, 3.0}, b[3] = {-4.0, 0.5, 1e300};
    EXPECT_TRUE(log.append(3, a));
    EXPECT_TRUE(log.append(0, b));
  }
  const auto whole = std::filesystem::file_size(path_);
  std::filesystem::resize_file(path_, whole - 5);  // a kill in the middle of the second record
  {
    ResumeLog log(path_, 42, 5, 3);
    const std::vector<ResumeRecord> r = log.take_records();
    ASSERT_EQ(r.size(), 1u);
    EXPECT_EQ(r[0].unit, 3);
    EXPECT_EQ(r[0].values, (std::vector<double>{1.0, 2.0, 3.0}));
    const double c[3] = {7.0, 8.0, 9.0};
    EXPECT_TRUE(log.append(1, c));  // after the last good record
  }
  ResumeLog log(path_, 42, 5, 3);
  const std::vector<ResumeRecord> r = log.take_records();
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[1].unit, 1);
  EXPECT_EQ(r[1].values, (std::vector<double>{7.0, 8.0, 9.0}));
}

TEST_F(ResumeLogTest, AnotherRunOrAnotherFileIsRefused) {
  { ResumeLog log(path_, 42, 5, 3); }
  EXPECT_THROW(ResumeLog(path_, 43, 5, 3), InputError);  // other key
  EXPECT_THROW(ResumeLog(path_, 42, 6, 3), InputError);  // other units
  EXPECT_THROW(ResumeLog(path_, 42, 5, 4), InputError);  // other payload
  const std::string text = dir_ / "text";
  {
    std::FILE* f = std::fopen(text.c_str(), "w");
    std::fputs("not a resume file at all, no", f);
    std::fclose(f);
  }
  EXPECT_THROW(ResumeLog(text, 42, 5, 3), InputError);
  EXPECT_THROW(ResumeLog(dir_.path(), 42, 5, 3), InputError);  // a directory
}

}  // namespace
}  // namespace hulhe
