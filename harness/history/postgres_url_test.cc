// PostgreSQL URLs: recognized by scheme, shown without the password.
#include "harness/history/postgres_url.h"

#include "gtest/gtest.h"

namespace onnxgate {
namespace {

TEST(PostgresUrlTest, SchemesAreRecognized) {
  EXPECT_TRUE(IsPostgresUrl("postgresql://host/db"));
  EXPECT_TRUE(IsPostgresUrl("postgres://host/db"));
  EXPECT_FALSE(IsPostgresUrl("history.db"));
  EXPECT_FALSE(IsPostgresUrl("mysql://host/db"));
  EXPECT_FALSE(IsPostgresUrl("./postgresql://x"));
}

TEST(PostgresUrlTest, ThePasswordIsTakenOut) {
  EXPECT_EQ(RedactPostgresUrl("postgresql://ci:s3cret@db.example:5432/history"),
            "postgresql://ci@db.example:5432/history");
  EXPECT_EQ(RedactPostgresUrl("postgres://ci@db/history"), "postgres://ci@db/history");
  EXPECT_EQ(RedactPostgresUrl("postgresql://db/history?password=x&sslmode=require"),
            "postgresql://db/history?sslmode=require");
  EXPECT_EQ(RedactPostgresUrl("postgresql://u:p@db/h?password=x"), "postgresql://u@db/h");
  EXPECT_EQ(RedactPostgresUrl("postgresql://db:5432/history"), "postgresql://db:5432/history");
  EXPECT_EQ(RedactPostgresUrl("history.db"), "history.db");
}

}  // namespace
}  // namespace onnxgate
