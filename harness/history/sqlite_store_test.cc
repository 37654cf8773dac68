// The SQLite store's own errors: locked, read-only, not a database, truncated, a newer schema,
// missing, and the migration path from an older schema.
#include "harness/history/sqlite_store.h"

#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>

#include "gtest/gtest.h"
#include "harness/history/store_test_util.h"
#include "runtime/base/child_process.h"

namespace onnxgate {
namespace {

namespace fs = std::filesystem;

constexpr uid_t kNobody = 65534;

// Runs `sql` on its own connection to `path`; SQLite's message, empty on success.
std::string RawSql(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  sqlite3_open(path.c_str(), &db);
  char* error = nullptr;
  sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error);
  std::string message = error != nullptr ? error : "";
  sqlite3_free(error);
  sqlite3_close(db);
  return message;
}

void MakeHistory(const std::string& path, int runs) {
  auto store = OpenSqliteResultsStore(path, /*create=*/true);
  ASSERT_TRUE(store.ok()) << store.status().ToString();
  for (int i = 0; i < runs; ++i) ASSERT_TRUE((*store)->Append(SampleRun(i)).ok());
}

void ExpectNames(const Status& status, const std::string& path, const std::string& what) {
  EXPECT_NE(status.message().find(path), std::string::npos) << status.ToString();
  EXPECT_NE(status.message().find(what), std::string::npos) << status.ToString();
}

TEST(SqliteStoreTest, MissingFileWithoutCreateIsNotFoundAndNotCreated) {
  TempFolder folder;
  const std::string path = folder.File("none.db");
  auto store = OpenSqliteResultsStore(path, /*create=*/false);
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.status().code(), StatusCode::kNotFound);
  ExpectNames(store.status(), path, "no such file");
  EXPECT_FALSE(fs::exists(path));
}

TEST(SqliteStoreTest, AMissingFolderIsNamed) {
  TempFolder folder;
  const std::string path = folder.File("no/such/folder/history.db");
  auto store = OpenSqliteResultsStore(path, /*create=*/true);
  ASSERT_FALSE(store.ok());
  ExpectNames(store.status(), path, "cannot open the file");
}

TEST(SqliteStoreTest, AFolderIsNotADatabase) {
  TempFolder folder;
  auto store = OpenSqliteResultsStore(folder.path(), /*create=*/true);
  ASSERT_FALSE(store.ok());
  ExpectNames(store.status(), folder.path(), "a folder");
}

TEST(SqliteStoreTest, GarbageIsNotADatabase) {
  TempFolder folder;
  const std::string path = folder.File("garbage.db");
  std::ofstream(path) << std::string(8192, 'x');
  auto store = OpenSqliteResultsStore(path, /*create=*/true);
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.status().code(), StatusCode::kDataLoss);
  ExpectNames(store.status(), path, "not a SQLite database, or corrupted");
}

TEST(SqliteStoreTest, ATruncatedDatabaseIsCorrupted) {
  TempFolder folder;
  const std::string path = folder.File("history.db");
  MakeHistory(path, 300);
  const auto size = fs::file_size(path);
  ASSERT_GT(size, 16384u);
  fs::resize_file(path, size / 2);
  Status error = OkStatus();
  auto store = OpenSqliteResultsStore(path, /*create=*/false);
  if (!store.ok()) {
    error = store.status();
  } else {
    auto latency = (*store)->ReadLatency({});
    ASSERT_FALSE(latency.ok()) << "read " << latency->size() << " points from half a file";
    error = latency.status();
  }
  EXPECT_EQ(error.code(), StatusCode::kDataLoss) << error.ToString();
  ExpectNames(error, path, "corrupted");
}

TEST(SqliteStoreTest, AnotherApplicationsDatabaseIsRefused) {
  TempFolder folder;
  const std::string path = folder.File("other.db");
  ASSERT_EQ(RawSql(path, "CREATE TABLE customers (id INTEGER)"), "");
  auto store = OpenSqliteResultsStore(path, /*create=*/true);
  ASSERT_FALSE(store.ok());
  ExpectNames(store.status(), path, "not an onnxgate history");
}

TEST(SqliteStoreTest, ANewerSchemaIsRefusedNamingBothVersions) {
  TempFolder folder;
  const std::string path = folder.File("history.db");
  MakeHistory(path, 1);
  ASSERT_EQ(RawSql(path, "UPDATE onnxgate_schema SET version = 99"), "");
  auto store = OpenSqliteResultsStore(path, /*create=*/true);
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.status().code(), StatusCode::kUnimplemented);
  ExpectNames(store.status(), path, "version 99");
  ExpectNames(store.status(), path, "version " + std::to_string(kHistorySchemaVersion));
}

TEST(SqliteStoreTest, AnOlderSchemaIsMigrated) {
  TempFolder folder;
  const std::string path = folder.File("history.db");
  ASSERT_EQ(RawSql(path,
                   "CREATE TABLE onnxgate_schema (version BIGINT NOT NULL);"
                   "INSERT INTO onnxgate_schema VALUES (0)"),
            "");
  auto store = OpenSqliteResultsStore(path, /*create=*/false);
  ASSERT_TRUE(store.ok()) << store.status().ToString();
  ASSERT_TRUE((*store)->Append(SampleRun(0)).ok());
  sqlite3* db = nullptr;
  sqlite3_open(path.c_str(), &db);
  sqlite3_stmt* statement = nullptr;
  sqlite3_prepare_v2(db, "SELECT version FROM onnxgate_schema", -1, &statement, nullptr);
  ASSERT_EQ(sqlite3_step(statement), SQLITE_ROW);
  EXPECT_EQ(sqlite3_column_int64(statement, 0), kHistorySchemaVersion);
  sqlite3_finalize(statement);
  sqlite3_close(db);
}

// Another connection holds the write lock: the append waits for the busy timeout, then fails
// naming the file; reads go on meanwhile (WAL).
TEST(SqliteStoreTest, ALockedDatabaseFailsAfterTheBusyTimeout) {
  TempFolder folder;
  const std::string path = folder.File("history.db");
  MakeHistory(path, 1);
  auto store = OpenSqliteResultsStore(path, /*create=*/false, {/*busy_timeout_ms=*/300});
  ASSERT_TRUE(store.ok()) << store.status().ToString();
  sqlite3* holder = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &holder), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(holder, "BEGIN EXCLUSIVE", nullptr, nullptr, nullptr), SQLITE_OK);
  const auto start = std::chrono::steady_clock::now();
  StatusOr<int64_t> appended = (*store)->Append(SampleRun(1));
  const auto waited = std::chrono::steady_clock::now() - start;
  ASSERT_FALSE(appended.ok());
  EXPECT_EQ(appended.status().code(), StatusCode::kUnavailable);
  ExpectNames(appended.status(), path, "locked");
  EXPECT_LT(waited, std::chrono::seconds(60));  // bounded, not a hang
  auto latency = (*store)->ReadLatency({});
  EXPECT_TRUE(latency.ok()) << latency.status().ToString();
  sqlite3_exec(holder, "ROLLBACK", nullptr, nullptr, nullptr);
  sqlite3_close(holder);
  EXPECT_TRUE((*store)->Append(SampleRun(1)).ok());
}

// What an unprivileged process gets from `path`: "open: <status>" or "read: <points>; append:
// <status>". Root writes through any permission, so as root the child drops to nobody.
std::string TryAsUnprivileged(const std::string& path) {
  ChildOutcome outcome = RunInChildProcess(
      [&]() -> std::string {
        if (geteuid() == 0 && (setgid(kNobody) != 0 || setuid(kNobody) != 0)) return "no-setuid";
        auto store = OpenSqliteResultsStore(path, /*create=*/false, {/*busy_timeout_ms=*/300});
        if (!store.ok()) return "open: " + store.status().ToString();
        auto latency = (*store)->ReadLatency({});
        StatusOr<int64_t> appended = (*store)->Append(SampleRun(9));
        return "read: " +
               (latency.ok() ? std::to_string(latency->size()) : latency.status().ToString()) +
               "; append: " + appended.status().ToString();
      },
      60);
  return outcome.output;
}

TEST(SqliteStoreTest, AReadOnlyFileCanBeReadButNotAppendedTo) {
  TempFolder folder;
  const std::string path = folder.File("history.db");
  MakeHistory(path, 1);
  fs::permissions(folder.path(), fs::perms::all);  // the folder is writable, the file is not
  fs::permissions(path, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
  const std::string result = TryAsUnprivileged(path);
  if (result == "no-setuid") GTEST_SKIP() << "cannot drop root to test permissions";
  EXPECT_NE(result.find("append: INVALID_ARGUMENT: history database " + path), std::string::npos)
      << result;
  EXPECT_NE(result.find("read-only"), std::string::npos) << result;
}

TEST(SqliteStoreTest, AReadOnlyFolderIsNamed) {
  TempFolder folder;
  const std::string path = folder.File("history.db");
  MakeHistory(path, 1);
  fs::permissions(path, fs::perms::all);  // the file is writable, its folder is not
  fs::permissions(folder.path(), fs::perms::owner_read | fs::perms::owner_exec |
                                     fs::perms::group_read | fs::perms::group_exec |
                                     fs::perms::others_read | fs::perms::others_exec);
  const std::string result = TryAsUnprivileged(path);
  if (result == "no-setuid") GTEST_SKIP() << "cannot drop root to test permissions";
  EXPECT_NE(result.find("history database " + path), std::string::npos) << result;
  EXPECT_NE(result.find("read-only"), std::string::npos) << result;
  fs::permissions(folder.path(), fs::perms::all);
}

TEST(SqliteStoreTest, OpenResultsStoreTakesAPathAsSqlite) {
  TempFolder folder;
  const std::string path = folder.File("history.db");
  auto store = OpenResultsStore(path, /*create=*/true);
  ASSERT_TRUE(store.ok()) << store.status().ToString();
  EXPECT_EQ((*store)->name(), path);
  EXPECT_TRUE(fs::exists(path));
}

}  // namespace
}  // namespace onnxgate
