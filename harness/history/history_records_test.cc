// Series keys, the schema's migration statements, and a point's checks.
#include "harness/history/history_records.h"

#include <cmath>

#include "gtest/gtest.h"
#include "harness/history/history_rows.h"
#include "harness/history/history_schema.h"

namespace onnxgate {
namespace {

TEST(HistoryRecordsTest, LatencyKeyLabelNamesEveryField) {
  LatencyKey key{"resnet18", "onnxgate", "dnnl", 2, "batch=4", 0, "wall"};
  EXPECT_EQ(LatencyKeyLabel(key), "resnet18 onnxgate/dnnl t=2 batch=4 O0 wall");
  key.shapes.clear();
  EXPECT_EQ(LatencyKeyLabel(key), "resnet18 onnxgate/dnnl t=2 O0 wall");
}

TEST(HistoryRecordsTest, KeysOrderAndCompareOnEveryField) {
  const LatencyKey a{"m", "r", "e", 1, "", 0, "wall"};
  LatencyKey b = a;
  EXPECT_TRUE(a == b);
  b.clock = "runtime";
  EXPECT_FALSE(a == b);
  EXPECT_TRUE(b < a);
  b = a;
  b.threads = 2;
  EXPECT_TRUE(a < b);
  const CaseKey c{"s", "case", "r", "e"};
  CaseKey d = c;
  EXPECT_TRUE(c == d);
  d.ep = "f";
  EXPECT_TRUE(c < d);
  EXPECT_FALSE(d < c);
}

TEST(HistorySchemaTest, MigrationsStartFromWhatIsThere) {
  for (SqlDialect dialect : {SqlDialect::kSqlite, SqlDialect::kPostgres}) {
    const std::string set_version =
        "UPDATE onnxgate_schema SET version = " + std::to_string(kHistorySchemaVersion);
    const std::vector<std::string> create = MigrationStatements(dialect, std::nullopt);
    ASSERT_GT(create.size(), 3u);
    EXPECT_EQ(create.front(), "CREATE TABLE onnxgate_schema (version BIGINT NOT NULL)");
    EXPECT_EQ(create.back(), set_version);
    const std::vector<std::string> from_zero = MigrationStatements(dialect, 0);
    EXPECT_EQ(from_zero.size(), create.size() - 2);
    EXPECT_EQ(from_zero.back(), set_version);
    EXPECT_TRUE(MigrationStatements(dialect, kHistorySchemaVersion).empty());
  }
  EXPECT_TRUE(CheckSchemaVersion("db", kHistorySchemaVersion).ok());
  EXPECT_EQ(CheckSchemaVersion("db", kHistorySchemaVersion + 1).code(), StatusCode::kUnimplemented);
}

TEST(HistorySchemaTest, SqliteParametersAreNumbered) {
  EXPECT_EQ(SqliteParameters("a = $1 AND b = $12 AND c = '$'"), "a = ?1 AND b = ?12 AND c = '$'");
}

TEST(HistoryRowsTest, NonFinitePointsAreRefusedNamingThePoint) {
  LatencyPoint p;
  p.key.model = "mlp";
  EXPECT_TRUE(ValidateLatencyPoint(p, 0).ok());
  p.cv = INFINITY;
  Status status = ValidateLatencyPoint(p, 2);
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(status.message().find("latency point 3 (mlp "), std::string::npos) << status.message();
  EXPECT_NE(status.message().find("cv is infinite"), std::string::npos);
  p.cv = 0;
  p.samples = -1;
  EXPECT_FALSE(ValidateLatencyPoint(p, 0).ok());
  CasePoint c;
  c.margin = INFINITY;
  EXPECT_TRUE(ValidateCasePoint(c, 0).ok());
  c.margin = NAN;
  EXPECT_FALSE(ValidateCasePoint(c, 0).ok());
}

TEST(HistoryRowsTest, TheGlobMatchesNames) {
  HistoryQuery q;
  EXPECT_TRUE(MatchesModelGlob(q, "anything"));
  q.model_glob = "resnet*";
  EXPECT_TRUE(MatchesModelGlob(q, "resnet18"));
  EXPECT_FALSE(MatchesModelGlob(q, "mlp"));
}

}  // namespace
}  // namespace onnxgate
