// The PostgreSQL store's own errors, against a server the test starts on 127.0.0.1: a wrong
// password, a stopped server, a newer schema; and the name without the password.
#include "harness/history/postgres_store.h"

#include <libpq-fe.h>

#include <chrono>

#include "gtest/gtest.h"
#include "harness/history/postgres_url.h"
#include "harness/history/store_test_util.h"

namespace onnxgate {
namespace {

class PostgresStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    StatusOr<std::string> url = FreshPostgresDatabase();
    if (!url.ok() && url.status().code() == StatusCode::kUnavailable) {
      GTEST_SKIP() << "no PostgreSQL server can start here: " << url.status().message();
    }
    ASSERT_TRUE(url.ok()) << url.status().ToString();
    url_ = *url;
  }
  // The URL with `password` in place of the real one.
  std::string WithPassword(const std::string& password) const {
    const size_t colon = url_.find(':', url_.find("://") + 3);
    const size_t at = url_.find('@');
    return url_.substr(0, colon + 1) + password + url_.substr(at);
  }
  std::string password() const {
    const size_t colon = url_.find(':', url_.find("://") + 3);
    return url_.substr(colon + 1, url_.find('@') - colon - 1);
  }

  std::string url_;
};

TEST_F(PostgresStoreTest, TheNameHasNoPassword) {
  auto store = OpenResultsStore(url_, /*create=*/true);
  ASSERT_TRUE(store.ok()) << store.status().ToString();
  EXPECT_EQ((*store)->name(), RedactPostgresUrl(url_));
  EXPECT_EQ((*store)->name().find(password()), std::string::npos);
}

TEST_F(PostgresStoreTest, AWrongPasswordIsRefusedNamingTheUrl) {
  const std::string wrong = WithPassword("not-the-password");
  auto store = OpenResultsStore(wrong, /*create=*/true);
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.status().code(), StatusCode::kUnavailable);
  const std::string& message = store.status().message();
  EXPECT_NE(message.find("history database " + RedactPostgresUrl(wrong)), std::string::npos)
      << message;
  EXPECT_NE(message.find("password authentication failed"), std::string::npos) << message;
  EXPECT_EQ(message.find("not-the-password"), std::string::npos) << message;
}

TEST_F(PostgresStoreTest, AStoppedServerIsAClearErrorNotAHang) {
  ASSERT_TRUE(StopSharedPostgresServer().ok());
  const auto start = std::chrono::steady_clock::now();
  auto store = OpenPostgresResultsStore(url_, /*create=*/true, {/*connect_timeout_s=*/5});
  const auto waited = std::chrono::steady_clock::now() - start;
  const Status restarted = RestartSharedPostgresServer();
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.status().code(), StatusCode::kUnavailable);
  EXPECT_NE(store.status().message().find("history database " + RedactPostgresUrl(url_) +
                                          ": cannot connect: "),
            std::string::npos)
      << store.status().message();
  EXPECT_EQ(store.status().message().find(password()), std::string::npos);
  EXPECT_LT(waited, std::chrono::seconds(60));
  ASSERT_TRUE(restarted.ok()) << restarted.ToString();
  EXPECT_TRUE(OpenResultsStore(url_, /*create=*/true).ok());
}

// An address that is never routed (TEST-NET-1): the connect timeout bounds the wait.
TEST(PostgresUnreachableTest, AnUnreachableServerIsAClearErrorNotAHang) {
  const std::string url = "postgresql://ci:secret@192.0.2.1:5432/history";
  const auto start = std::chrono::steady_clock::now();
  auto store = OpenPostgresResultsStore(url, /*create=*/true, {/*connect_timeout_s=*/2});
  const auto waited = std::chrono::steady_clock::now() - start;
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.status().code(), StatusCode::kUnavailable);
  EXPECT_NE(store.status().message().find(
                "history database postgresql://ci@192.0.2.1:5432/history: cannot connect: "),
            std::string::npos)
      << store.status().message();
  EXPECT_EQ(store.status().message().find("secret"), std::string::npos);
  EXPECT_LT(waited, std::chrono::seconds(60));
}

TEST_F(PostgresStoreTest, ANewerSchemaIsRefusedNamingBothVersions) {
  ASSERT_TRUE(OpenResultsStore(url_, /*create=*/true).ok());
  PGconn* connection = PQconnectdb(url_.c_str());
  PGresult* result = PQexec(connection, "UPDATE onnxgate_schema SET version = 42");
  EXPECT_EQ(PQresultStatus(result), PGRES_COMMAND_OK) << PQerrorMessage(connection);
  PQclear(result);
  PQfinish(connection);
  auto store = OpenResultsStore(url_, /*create=*/true);
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.status().code(), StatusCode::kUnimplemented);
  const std::string& message = store.status().message();
  EXPECT_NE(message.find(RedactPostgresUrl(url_)), std::string::npos) << message;
  EXPECT_NE(message.find("version 42"), std::string::npos) << message;
  EXPECT_NE(message.find("version " + std::to_string(kHistorySchemaVersion)), std::string::npos);
}

// Another session holds the runs table: the append waits for the lock timeout, then fails
// naming the database; reads go on meanwhile.
TEST_F(PostgresStoreTest, ALockedHistoryFailsAfterTheLockTimeout) {
  PostgresStoreOptions options;
  options.lock_timeout_ms = 300;
  auto store = OpenPostgresResultsStore(url_, /*create=*/true, options);
  ASSERT_TRUE(store.ok()) << store.status().ToString();
  PGconn* holder = PQconnectdb(url_.c_str());
  PQclear(PQexec(holder, "BEGIN"));
  PGresult* locked = PQexec(holder, "LOCK TABLE runs IN EXCLUSIVE MODE");
  EXPECT_EQ(PQresultStatus(locked), PGRES_COMMAND_OK) << PQerrorMessage(holder);
  PQclear(locked);
  StatusOr<int64_t> appended = (*store)->Append(SampleRun(0));
  ASSERT_FALSE(appended.ok());
  EXPECT_EQ(appended.status().code(), StatusCode::kUnavailable);
  EXPECT_NE(appended.status().message().find("history database " + RedactPostgresUrl(url_)),
            std::string::npos)
      << appended.status().message();
  EXPECT_NE(appended.status().message().find("locked"), std::string::npos);
  EXPECT_TRUE((*store)->ReadLatency({}).ok());
  PQclear(PQexec(holder, "ROLLBACK"));
  PQfinish(holder);
  EXPECT_TRUE((*store)->Append(SampleRun(0)).ok());
}

}  // namespace
}  // namespace onnxgate
