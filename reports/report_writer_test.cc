#include "reports/report_writer.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "reports/json_writer.h"
#include "reports/report_test_util.h"

namespace onnxgate {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

class ReportWriterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ =
        fs::temp_directory_path() /
        ("report_writer_test_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string Path(const std::string& name) const { return (dir_ / name).string(); }

  fs::path dir_;
};

TEST_F(ReportWriterTest, EachFormatWritesWhatItsRendererRenders) {
  const RunRecord run = SampleRun();
  MarkdownOptions md;
  md.title = "custom markdown";
  HtmlOptions html;
  html.title = "custom html";
  const std::pair<std::unique_ptr<ReportWriter>, std::string> cases[] = {
      {NewJsonReportWriter(), RenderRunJson(run)},
      {NewJunitReportWriter(JunitSchema::kStrict), RenderJunitXml(run, JunitSchema::kStrict)},
      {NewJunitReportWriter(JunitSchema::kExtended), RenderJunitXml(run, JunitSchema::kExtended)},
      {NewMarkdownReportWriter(md), RenderMarkdown(run, md)},
      {NewHtmlReportWriter(html), RenderHtml(run, html)},
  };
  int i = 0;
  for (const auto& [writer, expected] : cases) {
    const std::string path = Path("report" + std::to_string(i++));
    ASSERT_TRUE(writer->Write(run, path).ok()) << path;
    EXPECT_EQ(ReadAll(path), expected) << path;
  }
  EXPECT_NE(ReadAll(Path("report1")), ReadAll(Path("report2"))) << "the schema reaches the writer";
}

TEST_F(ReportWriterTest, AFailedWriteNamesTheReportAndThePath) {
  const std::string path = "/proc/no-such-folder/run.json";  // /proc takes no new folder
  Status st = NewJsonReportWriter()->Write(SampleRun(), path);
  ASSERT_FALSE(st.ok());
  EXPECT_THAT(st.message(), HasSubstr(path));
  st = NewHtmlReportWriter()->Write(SampleRun(), path);
  ASSERT_FALSE(st.ok());
  EXPECT_THAT(st.message(), HasSubstr("HTML report " + path));
}

TEST_F(ReportWriterTest, TargetsAreAddedOnlyForGivenPaths) {
  std::vector<ReportTarget> targets;
  AddReportTarget("", NewJsonReportWriter(), &targets);
  EXPECT_TRUE(targets.empty());
  AddReportTarget(Path("a.json"), NewJsonReportWriter(), &targets);
  AddReportTarget(Path("b.md"), NewMarkdownReportWriter(), &targets);
  ASSERT_EQ(targets.size(), 2u);
  EXPECT_EQ(targets[0].path, Path("a.json"));
  EXPECT_EQ(targets[1].path, Path("b.md"));
}

}  // namespace
}  // namespace onnxgate
